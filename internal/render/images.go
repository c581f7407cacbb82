package render

import "github.com/pruner-dev/pruner/internal/jsval"

// ImageOmittedNote replaces an image over maxImagesPerRequest.
const ImageOmittedNote = "[earlier image omitted from this request: over maxImagesPerRequest; read the file again to view it]"

// imageCount counts the image blocks of a message's content array.
func imageCount(raw []byte) int {
	content, _ := jsval.Get(raw, "content")
	els, _ := jsval.Elements(content)
	n := 0
	for _, el := range els {
		if t, _ := jsval.GetString(el, "type"); t == "image" {
			n++
		}
	}
	return n
}

// capImages is the image cap: when the request holds more than MaxImages
// image blocks, the oldest are replaced by ImageOmittedNote — in steps of
// ⌈MaxImages/2⌉, so the set omitted (and the prompt prefix) changes once
// per step of new images, not on every one. Messages masking will rewrite
// (Options.WillMask) hold no image afterwards and are not counted.
func (r *renderer) capImages() error {
	counts := make([]int, len(r.slots))
	total := 0
	for i := range r.slots {
		s := &r.slots[i]
		if !r.visible(s) || (s.src >= 0 && r.o.WillMask != nil && r.o.WillMask(int(s.src))) {
			continue
		}
		if s.stub() != nil || s.kept() && r.msg(s).Images() == 0 {
			continue // a stub holds no image
		}
		if err := r.viewOf(s, func(raw []byte) error {
			counts[i] = imageCount(raw)
			return nil
		}); err != nil {
			return err
		}
		total += counts[i]
	}
	max := r.o.MaxImages
	if total <= max {
		return nil
	}
	step := (max + 1) / 2
	if step < 1 {
		step = 1
	}
	omit := min(total, (total-max+step-1)/step*step)
	note := jsval.AppendString([]byte(`{"type":"text","text":`), ImageOmittedNote)
	note = append(note, '}')
	for i := range r.slots {
		if omit == 0 {
			break
		}
		if counts[i] == 0 {
			continue
		}
		s := &r.slots[i]
		raw, err := r.bytesOf(s)
		if err != nil {
			return err
		}
		content, _ := jsval.Get(raw, "content")
		els, _ := jsval.Elements(content)
		nc := []byte{'['}
		for j, el := range els {
			if j > 0 {
				nc = append(nc, ',')
			}
			if t, _ := jsval.GetString(el, "type"); t == "image" && omit > 0 {
				nc = append(nc, note...)
				omit--
				r.rep.ImagesOmitted++
				continue
			}
			nc = jsval.AppendCanonical(nc, el)
		}
		s.setJSON(spread(raw, kv{"content", append(nc, ']')}))
		s.change = ImagesCapped
	}
	return nil
}

package jsval

// AppendIndented appends JSON.stringify(JSON.parse(v), null, indent): the
// canonical form of v laid out with one member or element per line, nested
// levels indented by indent, ": " after keys, and empty objects and arrays
// as {} and [].
func AppendIndented(dst, v []byte, indent string) []byte {
	c := Canonical(v)
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		for i := 0; i < depth; i++ {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(c); i++ {
		switch b := c[i]; b {
		case '"':
			j := skipString(c, i)
			dst = append(dst, c[i:j]...)
			i = j - 1
		case '{', '[':
			if i+1 < len(c) && (c[i+1] == '}' || c[i+1] == ']') {
				dst = append(dst, b, c[i+1])
				i++
				continue
			}
			dst = append(dst, b)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, b)
		case ',':
			dst = append(dst, ',')
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, b)
		}
	}
	return dst
}

package guard

// Pass 21: a write that fills or replaces a folder D (cp -r SRC D, mv
// SRC D, ln -s SRC D, git clone URL D, tar x -C D, cp SRC… D/) may create
// any path below D, whether or not D or that path exists yet: a project
// with no .pi/ gets one from `cp -r /tmp/evil .pi`. Such a write is
// checked against the rules' own paths (a bare rule taken to live at the
// cwd, as where there is no disk) besides what the disk holds, and it
// writes through the links it meets below D (cp and tar write into a
// folder a link there points to).

// markFills marks a recursive target as one that fills its folder: a
// write of content (not chmod -R, rm -r, touch, whose writes change no
// file's content and create nothing new below the folder).
func (a *shellAnalyzer) markFills(t *target) {
	if t.rec && t.ops.Has(OpWrite) && !t.meta {
		t.fills = true
	}
}

// fillFollow is the link handling of a recursion that writes content
// below a folder: links to folders there are written through.
func (a *shellAnalyzer) fillFollow(ops OpSet, follow uint8) uint8 {
	if ops.Has(OpWrite) && !a.noContent && follow == followNone {
		return followAll
	}
	return follow
}

// markFillsFrom marks the recursive writes recorded from index from on as
// filling their folder, whatever their content: ln replaces its link name
// (a folder that is not surely one) with a link to its target, whatever
// that holds; a compiler fills its output folder with a program
// (cargo --target-dir).
func (a *shellAnalyzer) markFillsFrom(from int) {
	for i := from; i < len(a.out.targets); i++ {
		if t := &a.out.targets[i]; t.rec && t.ops.Has(OpWrite) {
			t.fills = true
		}
	}
}

// fillsByRules checks a folder a write fills against the rules alone.
func (m *Matcher) fillsByRules(t target, ops OpSet) (Violation, bool) {
	if !t.fills {
		return Violation{}, false
	}
	return m.folderByRules(t, ops)
}

// markNamedFrom marks the writes recorded from index from on of a name
// made from a source's glob (`cp /tmp/evil/* .pi/` writes .pi/NAME for
// each NAME the glob expands to where the sources are): the names are the
// sources', not what the destination holds, so the rules' own paths count
// (matchTarget), as for a fill.
func (a *shellAnalyzer) markNamedFrom(from int, into field) {
	if !into.pattern() {
		return
	}
	for i := from; i < len(a.out.targets); i++ {
		if t := &a.out.targets[i]; !t.rec && t.pattern && t.ops.Has(OpWrite) {
			t.fills = true
		}
	}
}

package bundle

import (
	"go.yaml.in/yaml/v3"

	"github.com/openapi-viewer/viewer/internal/transcode"
)

// expandSections replaces the $refs of the document's outline first: the
// root's own, its sections' (info, paths, components, definitions, ...) and
// the components sections', so that the names of their entries are known
// before any other $ref is bundled.
func (b *bundler) expandSections() error {
	if err := b.expand(b.root, b.rootFile, ctxRoot); err != nil {
		return err
	}
	for i := 0; i+1 < len(b.root.Content); i += 2 {
		key, v := b.root.Content[i].Value, transcode.ResolveAlias(b.root.Content[i+1])
		ctx := ctxRoot.child(key)
		if err := b.expand(v, b.fileFor(v, b.rootFile), ctx); err != nil {
			return err
		}
		if ctx != ctxComponents || v.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			sec := transcode.ResolveAlias(v.Content[j+1])
			if err := b.expand(sec, b.fileFor(sec, b.fileFor(v, b.rootFile)), ctx.child(v.Content[j].Value)); err != nil {
				return err
			}
		}
	}
	return nil
}

// expand replaces n's $ref (and that of what it points to, and so on) by
// a copy of what it points to; it walks no further.
func (b *bundler) expand(n *yaml.Node, file string, ctx refContext) error {
	pushed, err := b.resolveRefs(n, file, ctx)
	b.inline = b.inline[:len(b.inline)-pushed]
	return err
}

// reserveNames notes the names the root document's components already use.
func (b *bundler) reserveNames() {
	for _, sec := range []string{"definitions", "parameters", "responses"} {
		b.reserve(sec, mappingValue(b.root, sec))
	}
	if comps := mappingValue(b.root, "components"); comps != nil {
		for _, sec := range componentSections() {
			b.reserve("components/"+sec.name, mappingValue(comps, sec.name))
		}
	}
}

func (b *bundler) reserve(section string, m *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	if b.names[section] == nil {
		b.names[section] = map[string]bool{}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		b.names[section][m.Content[i].Value] = true
	}
}

// findHomes makes each entry of the root's components sections that is
// only a $ref to another file the home of what it points to: the object is
// copied there, under the name the author gave it, and every other $ref to
// the same file and pointer points there. An entry read from a file (a
// section given as a $ref) is also what a $ref to its place in that file
// means.
func (b *bundler) findHomes() error {
	type section struct {
		name string
		m    *yaml.Node
	}
	var sections []section
	if b.swagger2 {
		for _, sec := range []string{"definitions", "parameters", "responses"} {
			sections = append(sections, section{sec, mappingValue(b.root, sec)})
		}
	} else if comps := mappingValue(b.root, "components"); comps != nil {
		for _, sec := range componentSections() {
			if sec.kind != ctxPathItem { // copied in place, never a home
				sections = append(sections, section{"components/" + sec.name, mappingValue(comps, sec.name)})
			}
		}
	}
	for _, sec := range sections {
		m := sec.m
		if m == nil || m.Kind != yaml.MappingNode {
			continue
		}
		secFile := b.fileFor(m, b.rootFile)
		for i := 0; i+1 < len(m.Content); i += 2 {
			name, v := m.Content[i].Value, transcode.ResolveAlias(m.Content[i+1])
			here := "#/" + sec.name + "/" + escapePointer(name)
			file := b.fileFor(v, secFile)
			if sp := b.origins[v]; sp != nil && !sp.container {
				// An entry of a section read from a file: a $ref to its
				// place there means this entry.
				if key := sp.target + "#" + sp.frag() + "/" + escapePointer(name); b.targets[key] == "" {
					b.targets[key] = here
				}
			}
			if v.Kind != yaml.MappingNode || len(v.Content) != 2 || v.Content[0].Value != "$ref" {
				continue
			}
			ref := transcode.ResolveAlias(v.Content[1])
			if ref.Kind != yaml.ScalarNode || hasScheme(ref.Value) {
				continue
			}
			targetFile, frag, own, err := b.target(file, ref)
			if err != nil {
				return err
			}
			if own {
				continue // the root document's own $ref
			}
			key := targetFile + "#" + frag
			if _, taken := b.targets[key]; taken {
				continue // a second entry for the same object: it will point to the first
			}
			b.targets[key] = here
			b.homes[v] = key
		}
	}
	return nil
}

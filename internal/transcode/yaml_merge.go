package transcode

import (
	"go.yaml.in/yaml/v3"
)

// mergeBudget bounds the work of expanding merge keys (<<). Merges can nest
// and refer to the same mapping many times, so a few hundred bytes can ask
// for billions of pairs; every pair a merge brings in is counted, and the
// document is refused once the count passes the limit.
type mergeBudget struct {
	used, limit int
}

// newMergeBudget allows a generous multiple of the document's size: a real
// document merges each of its mappings a few times at most.
func newMergeBudget(docSize int) *mergeBudget {
	return &mergeBudget{limit: 16*docSize + 1<<16}
}

// pairs returns a mapping's key/value pairs in order, with merge keys (<<)
// expanded: a merge key's pairs take its place, except the keys the mapping
// sets itself, which keep theirs (explicit keys win over merged ones, and
// earlier merges over later ones).
func pairs(n *yaml.Node, budget *mergeBudget) ([][2]*yaml.Node, error) {
	out := make([][2]*yaml.Node, 0, len(n.Content)/2)
	seen := make(map[string]int, len(n.Content)/2)
	// The mapping's own keys first: they win wherever they are.
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			continue
		}
		key := ResolveAlias(k)
		if key.Kind != yaml.ScalarNode {
			return nil, nodeErrorf(k, "a mapping key must be a scalar to be written as JSON")
		}
		if j, dup := seen[key.Value]; dup {
			return nil, nodeErrorf(k, "duplicate key %q (first at line %d)", key.Value, n.Content[j].Line)
		}
		seen[key.Value] = i
	}
	taken := make(map[string]bool, len(seen))
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !(k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge") {
			key := ResolveAlias(k)
			taken[key.Value] = true
			out = append(out, [2]*yaml.Node{key, v})
			continue
		}
		merged, err := mergeSources(v, budget)
		if err != nil {
			return nil, err
		}
		for _, p := range merged {
			if _, own := seen[p[0].Value]; own || taken[p[0].Value] {
				continue
			}
			taken[p[0].Value] = true
			out = append(out, p)
		}
	}
	return out, nil
}

// mergeSources returns the pairs a merge key's value brings in: those of one
// mapping, or of each mapping of a list, earlier ones first.
func mergeSources(v *yaml.Node, budget *mergeBudget) ([][2]*yaml.Node, error) {
	src := ResolveAlias(v)
	var sources []*yaml.Node
	switch src.Kind {
	case yaml.MappingNode:
		sources = []*yaml.Node{src}
	case yaml.SequenceNode:
		for _, s := range src.Content {
			sources = append(sources, ResolveAlias(s))
		}
	default:
		return nil, nodeErrorf(v, "a merge key (<<) must refer to a mapping or a list of mappings")
	}
	var out [][2]*yaml.Node
	for _, s := range sources {
		if s.Kind != yaml.MappingNode {
			return nil, nodeErrorf(v, "a merge key (<<) must refer to a mapping")
		}
		budget.used += len(s.Content)/2 + 1
		if budget.used > budget.limit {
			return nil, nodeErrorf(v, "merge keys (<<) expand to over %d entries: the document nests merges too deeply", budget.limit)
		}
		sp, err := pairs(s, budget)
		if err != nil {
			return nil, err
		}
		out = append(out, sp...)
	}
	return out, nil
}

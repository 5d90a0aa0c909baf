package bundle

import (
	"path"
	"strconv"
	"strings"
)

// name picks the components entry name for the object at frag in file:
// its own key when frag ends in one ("#/components/schemas/Pet" gives
// "Pet"), else the file's base name without its extension
// ("schemas/pet.yaml" gives "pet"). Characters OpenAPI does not allow in a
// component name become "_". A name already used in the section gets "_2",
// "_3", ... in the order the $refs are found, so the result is the same on
// every run.
func (b *bundler) name(section, file, frag string) string {
	base := ""
	if frag != "" {
		base = frag[strings.LastIndexByte(frag, '/')+1:]
		base = strings.ReplaceAll(strings.ReplaceAll(base, "~1", "/"), "~0", "~")
	}
	if base == "" {
		base = path.Base(strings.ReplaceAll(file, "\\", "/"))
		base = strings.TrimSuffix(base, path.Ext(base))
	}
	base = componentName(base)
	used := b.names[section]
	if used == nil {
		used = map[string]bool{}
		b.names[section] = used
	}
	name := base
	for i := 2; used[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	used[name] = true
	return name
}

// componentName makes s fit OpenAPI's rule for component names,
// ^[a-zA-Z0-9.\-_]+$.
func componentName(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "ref"
	}
	return b.String()
}

package archtest

import (
	"fmt"
	"slices"
	"strings"
)

// pkg is the part of `go list -json` output the checks read. Imports and
// Deps cover non-test files only, which is what the rules are about.
type pkg struct {
	ImportPath string
	Standard   bool
	Imports    []string
	Deps       []string
	Error      *struct{ Err string }
}

// abs turns a module-relative rule path into an import path.
func abs(rel string) string {
	switch {
	case rel == ".":
		return module
	case isThirdParty(rel):
		return rel
	default:
		return module + "/" + rel
	}
}

func isThirdParty(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return strings.Contains(first, ".")
}

// covers reports whether the import path imp is the rule path rel or below it.
// The root "." covers only the root package itself.
func covers(rel, imp string) bool {
	a := abs(rel)
	if rel == "." {
		return imp == a
	}
	return imp == a || strings.HasPrefix(imp, a+"/")
}

func coveredByAny(rels []string, imp string) (string, bool) {
	for _, r := range rels {
		if covers(r, imp) {
			return r, true
		}
	}
	return "", false
}

// check applies rules to the listed packages and returns one message per
// offending import. Packages a rule names but the listing lacks (not written
// yet) are skipped.
func check(pkgs map[string]*pkg, rules []rule) []string {
	var out []string
	for _, r := range rules {
		p, ok := pkgs[abs(r.pkg)]
		if !ok {
			continue
		}
		name := display(p.ImportPath)
		for _, imp := range p.Imports {
			if isStd(pkgs, imp) {
				if slices.Contains(r.denyStd, imp) {
					out = append(out, fmt.Sprintf("%s imports %s: %s", name, imp, r.why))
				}
				continue
			}
			if r.allow != nil {
				if _, ok := coveredByAny(r.allow, imp); !ok {
					out = append(out, fmt.Sprintf("%s imports %s, which is not allowed: %s", name, display(imp), r.why))
					continue
				}
			}
			if d, ok := coveredByAny(r.denyDirect, imp); ok {
				out = append(out, fmt.Sprintf("%s imports %s (under %s): %s", name, display(imp), d, r.why))
			}
		}
		for _, dep := range p.Deps {
			if d, ok := coveredByAny(r.deny, dep); ok {
				how := "imports"
				if !slices.Contains(p.Imports, dep) {
					how = "depends (indirectly) on"
				}
				out = append(out, fmt.Sprintf("%s %s %s (denied: %s): %s", name, how, display(dep), d, r.why))
			}
		}
	}
	return out
}

// isStd reports whether imp is a standard-library package. go list marks
// every dependency it lists; an unlisted path falls back to the rule that
// standard paths have no dot in their first element.
func isStd(pkgs map[string]*pkg, imp string) bool {
	if p, ok := pkgs[imp]; ok {
		return p.Standard
	}
	return !isThirdParty(imp)
}

// display shortens a module import path for messages ("promo/catalog").
func display(imp string) string {
	if imp == module {
		return "promo (root)"
	}
	if rest, ok := strings.CutPrefix(imp, module+"/"); ok {
		return "promo/" + rest
	}
	return imp
}

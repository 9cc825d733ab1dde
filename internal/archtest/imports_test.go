package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestImportRules lists the module's packages with `go list -deps -json` and
// checks every import rule of docs/architecture.md against their non-test imports.
func TestImportRules(t *testing.T) {
	pkgs := listPackages(t)
	for _, must := range []string{".", "promotype"} {
		if _, ok := pkgs[abs(must)]; !ok {
			t.Fatalf("go list did not report %s: the check would be vacuous", display(abs(must)))
		}
	}
	for _, r := range rules {
		name := r.pkg
		if name == "." {
			name = "root"
		}
		t.Run(name, func(t *testing.T) {
			p, ok := pkgs[abs(r.pkg)]
			if !ok {
				t.Skipf("%s does not exist yet", display(abs(r.pkg)))
			}
			if p.Error != nil {
				t.Errorf("go list reports an error for %s, so its imports cannot be checked: %s", display(p.ImportPath), p.Error.Err)
			}
			for _, msg := range check(pkgs, []rule{r}) {
				t.Error(msg)
			}
		})
	}
}

// listPackages runs go list over the whole module (from its root) and
// returns every package it reports, the standard library included.
func listPackages(t *testing.T) map[string]*pkg {
	t.Helper()
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", stderrOf(err))
	}
	cmd := exec.Command("go", "list", "-e", "-deps", "-json=ImportPath,Standard,Imports,Deps,Error", "./...")
	cmd.Dir = filepath.Clean(strings.TrimSpace(string(root)))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps -json ./...: %v", stderrOf(err))
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		pkgs[p.ImportPath] = &p
	}
	return pkgs
}

func stderrOf(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return errors.New(strings.TrimSpace(string(ee.Stderr)))
	}
	return err
}

// TestCheck shows that check catches each kind of violation, on a made-up
// import graph, and names the offending import.
func TestCheck(t *testing.T) {
	t.Parallel()
	std := func(path string) *pkg { return &pkg{ImportPath: path, Standard: true} }
	mod := func(rel string, imports, deps []string) *pkg {
		return &pkg{ImportPath: abs(rel), Imports: imports, Deps: append(append([]string{}, imports...), deps...)}
	}
	m := func(rel string) string { return abs(rel) }

	tests := []struct {
		name string
		pkgs []*pkg
		want []string
	}{
		{
			name: "kernel with stdlib and decimal is fine",
			pkgs: []*pkg{std("fmt"), mod("promotype", []string{"fmt", decimal}, nil)},
		},
		{
			name: "kernel importing a domain package",
			pkgs: []*pkg{mod("promotype", []string{m("catalog")}, nil)},
			want: []string{"promo/promotype imports promo/catalog, which is not allowed: promotype imports only the standard library and shopspring/decimal"},
		},
		{
			name: "kernel importing another third-party module",
			pkgs: []*pkg{mod("promotype", []string{"github.com/google/uuid"}, nil)},
			want: []string{"promo/promotype imports github.com/google/uuid, which is not allowed: promotype imports only the standard library and shopspring/decimal"},
		},
		{
			name: "campaign may import catalog and location",
			pkgs: []*pkg{mod("campaign", []string{m("catalog"), m("location"), m("promotype"), m("internal/validate")}, nil)},
		},
		{
			name: "catalog importing campaign",
			pkgs: []*pkg{mod("catalog", []string{m("campaign")}, nil)},
			want: []string{"promo/catalog imports promo/campaign, which is not allowed: catalog imports no other domain package"},
		},
		{
			name: "order importing a higher layer",
			pkgs: []*pkg{mod("order", []string{m("catalog"), m("campaign")}, nil)},
			want: []string{"promo/order imports promo/campaign, which is not allowed: order imports only the base layer (catalog, customer, location, auth, webhook, async) among the domain packages"},
		},
		{
			name: "domain package importing net/http",
			pkgs: []*pkg{mod("catalog", []string{"net/http", m("promotype")}, nil)},
			want: []string{"promo/catalog imports net/http: no domain package imports net/http (webhook excepted): an error's status comes from promotype.Error"},
		},
		{
			name: "domain package importing storage",
			pkgs: []*pkg{mod("location", []string{m("storage")}, nil)},
			want: []string{"promo/location imports promo/storage, which is not allowed: location imports no other domain package"},
		},
		{
			name: "root importing the memory store",
			pkgs: []*pkg{mod(".", []string{m("storage"), m("storage/memory")}, nil)},
			want: []string{"promo (root) imports promo/storage/memory (denied: storage/memory): the root promo imports storage and the domain packages, never a store implementation or the adapter"},
		},
		{
			name: "root reaching the adapter indirectly",
			pkgs: []*pkg{mod(".", []string{m("storage")}, []string{m("httpadapter")})},
			want: []string{"promo (root) depends (indirectly) on promo/httpadapter (denied: httpadapter): the root promo imports storage and the domain packages, never a store implementation or the adapter"},
		},
		{
			name: "adapter through the facade is fine",
			pkgs: []*pkg{mod("httpadapter", []string{module, m("promotype")}, []string{m("storage")})},
		},
		{
			name: "adapter importing storage directly",
			pkgs: []*pkg{mod("httpadapter", []string{module, m("storage")}, nil)},
			want: []string{"promo/httpadapter imports promo/storage (under storage): httpadapter imports promo, promotype and domain types, never storage (in non-test code)"},
		},
		{
			name: "adapter importing a store",
			pkgs: []*pkg{mod("httpadapter", []string{module, m("storage/bunstore")}, nil)},
			want: []string{
				"promo/httpadapter imports promo/storage/bunstore (under storage): httpadapter imports promo, promotype and domain types, never storage (in non-test code)",
				"promo/httpadapter imports promo/storage/bunstore (denied: storage/bunstore): httpadapter imports promo, promotype and domain types, never storage (in non-test code)",
			},
		},
		{
			name: "absent packages are skipped",
			pkgs: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			pkgs := map[string]*pkg{}
			for _, p := range tt.pkgs {
				pkgs[p.ImportPath] = p
			}
			got := check(pkgs, rules)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("check() (-want +got):\n%s", diff)
			}
		})
	}
}

package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// portPackages are the packages that declare storage ports (interfaces a
// store implements). promotype's EventStore is the outbox, which the
// stores keep with the webhook port.
var portPackages = []string{"auth", "async", "catalog", "customer", "location", "order", "campaign",
	"rule", "reward", "voucher", "promotion", "project", "redemption", "publication", "export", "webhook", "promotype"}

// portFile names the file that holds the methods of a port declared in pkg.
func portFile(pkg string) string {
	if pkg == "promotype" {
		return "webhook.go"
	}
	return pkg + ".go"
}

// TestStorageFilesByPort checks the layout of the stores (docs/architecture.md): every
// method a store has for a port lives in the file named after the package
// that declares the port, and storage/memory and storage/bunstore have the
// same set of port files.
func TestStorageFilesByPort(t *testing.T) {
	root := moduleRoot(t)
	owner := map[string]string{} // port method -> its package's file
	for _, pkg := range portPackages {
		for name := range interfaceMethods(t, filepath.Join(root, pkg)) {
			if _, ok := owner[name]; !ok { // the first declaring package names it
				owner[name] = portFile(pkg)
			}
		}
	}
	if len(owner) == 0 {
		t.Fatal("no port methods found: the walk is broken")
	}
	files := map[string][]string{}
	for _, store := range []string{"storage/memory", "storage/bunstore"} {
		seen := map[string]bool{}
		for file, methods := range storeMethods(t, filepath.Join(root, store)) {
			for _, m := range methods {
				want, ok := owner[m]
				if !ok {
					continue // not a port method: an ability (RunInTx, RunInBulkTx) or a helper
				}
				seen[want] = true
				if file != want {
					t.Errorf("%s: (*Store).%s is in %s; the port's package makes it %s", store, m, file, want)
				}
			}
		}
		for f := range seen {
			files[store] = append(files[store], f)
		}
		slices.Sort(files[store])
	}
	if !slices.Equal(files["storage/memory"], files["storage/bunstore"]) {
		t.Errorf("port files differ: memory %v, bunstore %v", files["storage/memory"], files["storage/bunstore"])
	}
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", dir, err)
	}
	return dir
}

// parseDir parses the non-test Go files of dir.
func parseDir(t *testing.T, dir string) map[string]*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ast.File{}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = f
	}
	return out
}

// interfaceMethods returns the methods named in the interface types of the
// package in dir.
func interfaceMethods(t *testing.T, dir string) map[string]bool {
	out := map[string]bool{}
	if _, err := os.Stat(dir); err != nil {
		return out // a package the layout names but the module lacks yet
	}
	for _, f := range parseDir(t, dir) {
		ast.Inspect(f, func(n ast.Node) bool {
			it, ok := n.(*ast.InterfaceType)
			if !ok {
				return true
			}
			for _, m := range it.Methods.List {
				if _, ok := m.Type.(*ast.FuncType); ok {
					for _, name := range m.Names {
						out[name.Name] = true
					}
				}
			}
			return false
		})
	}
	return out
}

// storeMethods returns, per file, the methods of the type Store in dir.
func storeMethods(t *testing.T, dir string) map[string][]string {
	out := map[string][]string{}
	for name, f := range parseDir(t, dir) {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			rt := fd.Recv.List[0].Type
			if st, ok := rt.(*ast.StarExpr); ok {
				rt = st.X
			}
			if id, ok := rt.(*ast.Ident); ok && id.Name == "Store" {
				out[name] = append(out[name], fd.Name.Name)
			}
		}
	}
	return out
}

package archtest

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goFiles returns the module's Go files (tests included), relative to
// root, leaving out testdata and hidden directories.
func goFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	// section is a section sign; one that follows "RFC <number>" cites a
	// public standard and is allowed (rfc).
	section = regexp.MustCompile(`§`)
	rfc     = regexp.MustCompile(`RFC \d+ §`)
	// outside names the documents kept outside the repository.
	outside = regexp.MustCompile(`\.\./shared|interface-spec|\bDESIGN\.md|\bDECISIONS\.md|\breference/|\breference §`)
	// mdFile is a Markdown file name, with or without a directory.
	mdFile = regexp.MustCompile(`[\w./-]*\w\.md\b`)
)

// citations returns what line cites that a reader of the repository cannot
// open: a section sign (but an RFC's), a document kept outside the
// repository, a Markdown file for which exists is false.
func citations(line string, exists func(name string) bool) []string {
	var found []string
	if n := len(section.FindAllStringIndex(line, -1)); n > len(rfc.FindAllStringIndex(line, -1)) {
		found = append(found, "a section sign (§)")
	}
	for _, m := range outside.FindAllString(line, -1) {
		found = append(found, fmt.Sprintf("%q", m))
	}
	for _, m := range mdFile.FindAllString(line, -1) {
		if outside.FindString(m) != m && !exists(m) {
			found = append(found, fmt.Sprintf("%s, which the repository does not have", m))
		}
	}
	return found
}

// TestCitations proves on made-up lines (testdata/citations.json) that
// each kind of citation is caught, and that what the repository holds is
// not.
func TestCitations(t *testing.T) {
	t.Parallel()
	exists := func(name string) bool { return name == "docs/behaviour.md" || name == "CHANGELOG.md" }
	raw, err := os.ReadFile(filepath.Join("testdata", "citations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Line string   `json:"line"`
		Want []string `json:"want"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 9 {
		t.Fatalf("%d cases in testdata/citations.json: the check would be vacuous", len(cases))
	}
	for _, tc := range cases {
		if diff := cmp.Diff(tc.Want, citations(tc.Line, exists)); diff != "" {
			t.Errorf("citations(%q) (-want +got):\n%s", tc.Line, diff)
		}
	}
}

// TestCommentsCiteOnlyTheRepository fails when a comment of a Go file of
// the module (tests included, testdata left out) cites a document the
// repository does not hold: a reader of the code must be able to open what
// a comment points at.
func TestCommentsCiteOnlyTheRepository(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(name)))
		return err == nil
	}
	files := goFiles(t, root)
	if len(files) < 100 {
		t.Fatalf("found %d Go files under %s: the check would be vacuous", len(files), root)
	}
	fset := token.NewFileSet()
	for _, rel := range files {
		f, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				for i, line := range strings.Split(c.Text, "\n") {
					if found := citations(line, exists); len(found) > 0 {
						pos := fset.Position(c.Slash)
						t.Errorf("%s:%d: the comment cites %s; state the behaviour itself or cite a file of the repository (docs/behaviour.md, docs/architecture.md)",
							rel, pos.Line+i, strings.Join(found, ", "))
					}
				}
			}
		}
	}
}

// TestPackageDocs fails when a package of the module has no package doc
// comment in its doc.go: `go doc` of every package must say what it is
// for.
func TestPackageDocs(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Dir,Name,GoFiles,TestGoFiles,XTestGoFiles", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -json ./...: %v", stderrOf(err))
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	n := 0
	for dec.More() {
		var p struct {
			ImportPath, Dir, Name string
			GoFiles               []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		n++
		if len(p.GoFiles) == 0 {
			continue // test-only directories (acceptance suites) have no package to document
		}
		path := filepath.Join(p.Dir, "doc.go")
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Errorf("%s has no doc.go holding its package doc: %v", p.ImportPath, err)
			continue
		}
		if !documented(f) {
			t.Errorf("%s: doc.go has no package doc comment (a comment right above `package %s`)", p.ImportPath, f.Name.Name)
		}
	}
	if n < 30 {
		t.Fatalf("go list reported %d packages: the check would be vacuous", n)
	}
}

// documented reports whether f's package clause has a doc comment that
// says what the package or command is for (more than its name).
func documented(f *ast.File) bool {
	return f.Doc != nil && len(strings.Fields(f.Doc.Text())) >= 8
}

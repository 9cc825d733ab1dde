package main

import (
	"bufio"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// dockerfile is the container recipe, at the module root.
const dockerfile = "../../Dockerfile"

// TestDockerfileBuild runs the Dockerfile's `go build` line as written
// (its environment, flags and package; the output and ${VERSION} filled
// in) from the module root, as the build stage does, and checks what the
// image relies on: a static binary (no ELF interpreter, no shared
// libraries) that reports the version given at build time. The final
// stage must run as a non-root user.
func TestDockerfileBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: not in -short")
	}
	runLine, final := readDockerfile(t)
	if !strings.HasPrefix(final.from, "gcr.io/distroless/static") && final.from != "scratch" {
		t.Errorf("final stage FROM %s, want distroless static or scratch (no libc for a static binary)", final.from)
	}
	if final.user == "" || final.user == "root" || strings.HasPrefix(final.user, "0") {
		t.Errorf("final stage USER %q, want a non-root user", final.user)
	}

	out := filepath.Join(t.TempDir(), "promo")
	const version = "v9.8.7-dockerfile-test"
	line := strings.ReplaceAll(runLine, "${VERSION}", version)
	line = regexp.MustCompile(`-o \S+`).ReplaceAllString(line, "-o "+out)
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = "../.."
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", line, err, b)
	}

	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary has an ELF interpreter: it is not static (CGO_ENABLED=0 missing?)")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("the binary needs shared libraries %v, want none", libs)
	}

	got, err := exec.Command(out, "version").Output()
	if err != nil {
		t.Fatalf("promo version: %v", err)
	}
	if want := "promo " + version + "\n"; string(got) != want {
		t.Errorf("promo version = %q, want %q (the -X of the build line)", got, want)
	}
}

// stage is what the test checks of a Dockerfile stage.
type stage struct{ from, user string }

// readDockerfile returns the `go build` RUN line of the Dockerfile (with
// RUN stripped) and its final stage.
func readDockerfile(t *testing.T) (string, stage) {
	t.Helper()
	f, err := os.Open(dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var run string
	var last stage
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		switch strings.ToUpper(fields[0]) {
		case "FROM":
			last = stage{from: fields[1]}
		case "USER":
			last.user = fields[1]
		case "RUN":
			if strings.Contains(sc.Text(), "go build") {
				if run != "" {
					t.Fatal("the Dockerfile has several go build lines")
				}
				run = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "RUN"))
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if run == "" || !strings.Contains(run, "-o ") {
		t.Fatalf("no `RUN ... go build ... -o FILE` line in %s", dockerfile)
	}
	return run, last
}

package bunstore

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitStatements(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   []string
	}{
		{"SELECT 1; SELECT 2", []string{"SELECT 1", "SELECT 2"}},
		{"SELECT 1;\n\n", []string{"SELECT 1"}},
		{"SELECT 'a;b', 'it''s; fine'; SELECT \"x;y\"", []string{"SELECT 'a;b', 'it''s; fine'", `SELECT "x;y"`}},
		{"-- a; comment\nSELECT 1; /* b; */ SELECT 2", []string{"-- a; comment\nSELECT 1", "/* b; */ SELECT 2"}},
		{"CREATE FUNCTION f() RETURNS int AS $fn$ BEGIN x; RETURN format('%1$s;', 1); END $fn$ LANGUAGE plpgsql; SELECT $1",
			[]string{"CREATE FUNCTION f() RETURNS int AS $fn$ BEGIN x; RETURN format('%1$s;', 1); END $fn$ LANGUAGE plpgsql", "SELECT $1"}},
		{"DO $$ BEGIN a; b; END $$;", []string{"DO $$ BEGIN a; b; END $$"}},
		{"-- only a comment;\n", nil},
	} {
		if diff := cmp.Diff(tc.want, splitStatements(tc.script)); diff != "" {
			t.Errorf("splitStatements(%q) (-want +got):\n%s", tc.script, diff)
		}
	}
}

// Every migration splits into statements that, put back together, hold
// all of its SQL: nothing is lost between them.
func TestSplitMigrations(t *testing.T) {
	files, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, ";", " ")), " ") }
	for _, f := range files {
		b, err := migrations.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, line := range strings.Split(string(b), "\n") {
			if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "--") {
				kept = append(kept, line)
			}
		}
		var got []string
		for _, st := range splitStatements(string(b)) {
			for _, line := range strings.Split(st, "\n") {
				if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "--") {
					got = append(got, line)
				}
			}
		}
		if squeeze(strings.Join(got, "\n")) != squeeze(strings.Join(kept, "\n")) {
			t.Errorf("%s: the statements do not add up to the script", f)
		}
	}
}

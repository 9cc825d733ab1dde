package httpadapter

// isolationRow is one request that project B's credentials make against a
// resource of project A; it must answer 404 exactly as for a missing id.
// Paths may hold {name} placeholders that the isolation test fills with the
// ids of project A's fixtures.
type isolationRow struct {
	name   string
	method string
	path   string
	body   string
}

// isolationRows is the isolation test's table. Each resource group appends
// its rows in an init() of its own _test.go file.
var isolationRows []isolationRow

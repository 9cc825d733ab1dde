package httpadapter_test

// isolationRow is one request that project B's credentials make against a
// resource of project A; it must answer 404 exactly as for a missing id.
// Paths (and bodies) may hold {name} placeholders that the isolation test
// fills with the ids its seeds recorded for project A's fixtures.
type isolationRow struct {
	name   string
	method string
	path   string
	body   string
}

// isolationSeed creates project A's fixtures of one resource group through h
// (the default credentials are project A's) and records the values of the
// placeholders its rows use in ids ("productId" → "prod_..."). Seeds run in
// the order they were appended (file name order of the init functions), so a
// seed may use the ids recorded before it.
type isolationSeed func(h *harness, ids map[string]string)

// The isolation test's tables (isolation_test.go). Each resource group
// appends its seed and rows in an init() of its own _test.go file:
//
//   - isolationRows: requests on one of A's resources; each must be 404;
//   - isolationLists: list requests; each must be 200 and show none of A's
//     ids;
//   - isolationJoins: order creates naming one of A's catalog items; as an
//     unknown item, each is 200 with the line kept as sent, joining none of
//     A's catalog data (no product or SKU object, no price);
//   - isolationSeeds: what creates A's fixtures.
//
// Every route whose pattern has a {placeholder} must be the method and path
// of a row, and every GET route without one a list
// (TestIsolationCoversEveryRoute). Name placeholders as the route pattern
// does ({productId}), so the row's path is the pattern itself.
var (
	isolationRows  []isolationRow
	isolationLists []isolationRow
	isolationJoins []isolationRow
	isolationSeeds []isolationSeed
)

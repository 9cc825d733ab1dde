package archtest

// module is the path of the module under test.
const module = "github.com/promoengine/promo"

// rule restricts the imports of one package of the module. Paths in allow,
// deny and denyDirect are module-relative ("promotype", "storage/memory"; "."
// is the root package) unless their first element holds a dot, which makes
// them a third-party module path ("github.com/shopspring/decimal"). A path
// also covers the packages below it.
type rule struct {
	pkg string // module-relative path of the package the rule applies to

	// allow lists the only non-standard packages pkg may import directly;
	// nil means any (only deny and denyDirect apply). The standard library
	// is always allowed.
	allow []string
	// deny lists packages that must not appear anywhere in pkg's
	// dependencies (direct or not).
	deny []string
	// denyDirect lists packages pkg must not import directly (it may still
	// depend on them through an allowed package).
	denyDirect []string
	why        string // the rule in words, for the failure message
}

// Third-party modules the kernel and domain packages may use.
const (
	decimal   = "github.com/shopspring/decimal"
	validator = "github.com/go-playground/validator/v10"
)

// domain returns the allow list of a domain package: the kernel, the shared
// validator, the two allowed third-party modules and the lower domain
// packages given.
func domain(lower ...string) []string {
	return append([]string{"promotype", "internal/validate", validator, decimal}, lower...)
}

// rules are DESIGN.md's import rules ("Import rules (no cycles, no back doors)").
var rules = []rule{
	{pkg: "promotype", allow: []string{decimal},
		why: "promotype imports only the standard library and shopspring/decimal"},
	{pkg: "internal/validate", allow: []string{"promotype", validator},
		why: "internal/validate imports only promotype and validator/v10"},

	{pkg: "auth", allow: domain(), why: "auth imports no other domain package"},
	{pkg: "webhook", allow: domain(), why: "webhook imports no other domain package"},
	{pkg: "catalog", allow: domain(), why: "catalog imports no other domain package"},
	{pkg: "customer", allow: domain(), why: "customer imports no other domain package"},
	{pkg: "location", allow: domain(), why: "location imports no other domain package"},
	{pkg: "order", allow: domain("catalog", "customer"),
		why: "order imports only catalog and customer among the domain packages"},
	{pkg: "campaign", allow: domain("campaign", "order", "catalog", "customer", "location"),
		why: "campaign (and its subpackages rule and discount) imports only its own subpackages, order, catalog, customer and location among the domain packages"},
	{pkg: "voucher", allow: domain("campaign"),
		why: "voucher imports only campaign among the domain packages"},
	{pkg: "project", allow: domain("customer"),
		why: "project imports only customer among the domain packages"},

	{pkg: "storage", deny: []string{".", "storage/memory", "storage/bunstore", "storage/storagetest", "httpadapter"},
		why: "storage (the ports) never imports the facade, a store implementation or the adapter"},
	{pkg: ".", deny: []string{"storage/memory", "storage/bunstore", "storage/storagetest", "httpadapter"},
		why: "the root promo imports storage and the domain packages, never a store implementation or the adapter"},
	{pkg: "httpadapter", denyDirect: []string{"storage"}, deny: []string{"storage/memory", "storage/bunstore", "storage/storagetest"},
		why: "httpadapter imports promo, promotype and domain types, never storage (in non-test code)"},
}

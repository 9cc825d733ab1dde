package archtest

import "slices"

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
	// denyStd lists standard library packages pkg must not import directly.
	denyStd []string
	why     string // the rule in words, for the failure message
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

// base is the lowest domain layer; layers lists the layers above it, lowest
// first.
var (
	base   = []string{"catalog", "customer", "location", "auth", "webhook", "async"}
	layers = [][]string{{"order", "segment"}, {"discount"}, {"rule"}, {"campaign"}, {"reward", "voucher", "promotion", "project"}, {"redemption", "publication", "imports", "bin"}, {"export", "loyalty", "referral"}}
)

// upTo returns the base layer and every layer up to the one holding pkg.
func upTo(pkg string) []string {
	out := append([]string{}, base...)
	for _, l := range layers {
		out = append(out, l...)
		if slices.Contains(l, pkg) {
			break
		}
	}
	return out
}

// rules are the import rules of docs/architecture.md ("Import rules").
var rules = append(layerRules, noHTTP()...)

// noHTTP forbids net/http in the kernel and every domain package but
// webhook (which sends HTTP): an error carries its status in promotype.Error.
func noHTTP() []rule {
	var out []rule
	for _, p := range append([]string{"promotype"}, upTo("export")...) {
		if p != "webhook" {
			out = append(out, rule{pkg: p, denyStd: []string{"net/http"},
				why: "no domain package imports net/http (webhook excepted): an error's status comes from promotype.Error"})
		}
	}
	return out
}

var layerRules = []rule{
	{pkg: "promotype", allow: []string{decimal},
		why: "promotype imports only the standard library and shopspring/decimal"},
	{pkg: "internal/validate", allow: []string{"promotype", validator},
		why: "internal/validate imports only promotype and validator/v10"},

	// The layers of docs/architecture.md, lowest first: catalog, customer, location,
	// auth, webhook, async ← order ← discount ← rule ← campaign ← reward,
	// voucher, promotion, project ← redemption.
	{pkg: "auth", allow: domain(), why: "auth imports no other domain package"},
	{pkg: "webhook", allow: domain("internal/startstop"), why: "webhook imports no other domain package"},
	{pkg: "catalog", allow: domain(), why: "catalog imports no other domain package"},
	{pkg: "customer", allow: domain(), why: "customer imports no other domain package"},
	{pkg: "location", allow: domain(), why: "location imports no other domain package"},
	{pkg: "async", allow: domain("internal/startstop"), why: "async imports no other domain package"},
	{pkg: "order", allow: domain(base...),
		why: "order imports only the base layer (catalog, customer, location, auth, webhook, async) among the domain packages"},
	{pkg: "segment", allow: domain(base...),
		why: "segment imports only the base layer (customer among it) among the domain packages: its membership is written by customer changes, and rules read it as a fact"},
	{pkg: "discount/formula", allow: []string{},
		why: "discount/formula (the formula language) imports only the standard library"},
	{pkg: "discount", allow: domain(append(upTo("order"), "discount/formula")...),
		why: "discount imports only its formula language, order and the base layer among the domain packages"},
	{pkg: "rule", allow: domain(upTo("discount")...),
		why: "rule imports only discount, order and the base layer among the domain packages"},
	{pkg: "campaign", allow: domain(upTo("rule")...),
		why: "campaign imports only rule, discount, order and the base layer among the domain packages"},
	{pkg: "reward", allow: domain(upTo("campaign")...),
		why: "reward imports only campaign and the layers below it among the domain packages"},
	{pkg: "voucher", allow: domain(upTo("campaign")...),
		why: "voucher imports only campaign and the layers below it among the domain packages"},
	{pkg: "promotion", allow: domain(upTo("campaign")...),
		why: "promotion imports only campaign and the layers below it among the domain packages"},
	{pkg: "project", allow: domain(upTo("campaign")...),
		why: "project imports only campaign and the layers below it among the domain packages"},
	{pkg: "redemption", allow: domain(upTo("project")...),
		why: "redemption imports only the domain layers below it"},
	{pkg: "publication", allow: domain(upTo("project")...),
		why: "publication imports only the domain layers below it (not redemption, its neighbour)"},
	{pkg: "export", allow: domain(upTo("publication")...),
		why: "export imports only the domain layers below it (it reads what they store)"},

	{pkg: "loyalty", allow: append(domain(upTo("publication")...), "internal/startstop"),
		why: "loyalty imports only the domain layers below it (it earns and spends through redemption and publishes cards through publication; not export, its neighbour)"},

	{pkg: "bin", allow: domain(upTo("project")...),
		why: "bin imports only the domain layers below it: it lists and deletes what campaign, voucher and catalog bin"},
	{pkg: "referral", allow: domain(upTo("publication")...),
		why: "referral imports only the domain layers below it (it credits rewards through redemption and publishes cards through publication; not loyalty or export, its neighbours)"},

	{pkg: "imports", allow: domain(upTo("project")...),
		why: "imports imports only the domain layers below it (not redemption or publication, its neighbours)"},

	{pkg: "storage", deny: []string{".", "storage/memory", "storage/bunstore", "storage/storagetest", "httpadapter"},
		why: "storage (the ports) never imports the facade, a store implementation or the adapter"},
	{pkg: ".", deny: []string{"storage/memory", "storage/bunstore", "storage/storagetest", "httpadapter"},
		why: "the root promo imports storage and the domain packages, never a store implementation or the adapter"},
	{pkg: ".", deny: []string{"github.com/prometheus", "go.opentelemetry.io"},
		why: "the engine imports no telemetry library: instrumentation lives in telemetry, httpadapter and the server"},
	{pkg: "storage", deny: []string{"github.com/prometheus", "go.opentelemetry.io"},
		why: "the store ports import no telemetry library"},
	{pkg: "telemetry", deny: []string{"storage/memory", "storage/bunstore", "storage/storagetest", "httpadapter"},
		why: "telemetry observes the engine through promo, never a store implementation or the adapter"},
	{pkg: "httpadapter", denyDirect: []string{"storage"}, deny: []string{"storage/memory", "storage/bunstore", "storage/storagetest"},
		why: "httpadapter imports promo, promotype and domain types, never storage (in non-test code)"},
}

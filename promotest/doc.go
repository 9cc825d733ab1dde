// Package promotest helps an application test its use of promo: [New]
// returns a [Harness], an engine over a fresh memory store whose clock
// stands still at a fixed instant (moved only by the test) and whose ids
// count up, with a project and its key pairs ready; its Require methods
// check what a test of a checkout usually asks ("voucher X was redeemed N
// times") and report through the test's Errorf, naming what they found.
//
//	func TestCheckout(t *testing.T) {
//		h := promotest.New(t)
//		// ... create a voucher in h.ProjectID, run the checkout code with h.Engine ...
//		h.RequireVoucherRedeemed("SUMMER-10", 1)
//	}
//
// The harness needs no database and no network; each call to New is
// independent, so tests using it may run in parallel.
package promotest

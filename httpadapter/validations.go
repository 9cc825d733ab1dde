package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

// validationRoutes are stackable validation (scope validations),
// qualifications (scope qualifications), the
// legacy voucher validation and the stacking rules of the management API.
func (s *server) validationRoutes() []route {
	const mp = "/management/v1/projects/{projectId}"
	v, sr := s.engine.Validations(), s.engine.StackingRules()
	return []route{
		{http.MethodPost, "/v1/validations", appKey, withBody(func(c *call, in redemption.ValidationParams) (*redemption.Validation, error) {
			return v.Validate(c.ctx(), c.projectID, in)
		})},

		{http.MethodPost, "/v1/qualifications", appKey, withBody(func(c *call, in redemption.QualificationParams) (*redemption.Qualification, error) {
			return s.engine.Qualifications().Qualify(c.ctx(), c.projectID, in)
		})},

		// Legacy single-voucher validation (scope vouchers), deprecated.
		{http.MethodPost, "/v1/vouchers/{code}/validate", appKey, withBody(func(c *call, in redemption.VoucherValidationParams) (*redemption.VoucherValidation, error) {
			return v.ValidateVoucher(c.ctx(), c.projectID, c.path("code"), in)
		})},
		// Release a LOCK session's reservation on one voucher (scope vouchers).
		{http.MethodDelete, "/v1/vouchers/{code}/sessions/{sessionKey}", appKey, noContent(func(c *call) error {
			return v.ReleaseSession(c.ctx(), c.projectID, c.path("code"), c.path("sessionKey"))
		})},

		{http.MethodPost, mp + "/stacking-rules", managementKey, withBody(func(c *call, in redemption.StackingRulesParams) (*redemption.StackingRules, error) {
			return sr.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, mp + "/stacking-rules", managementKey, withoutBody(func(c *call) (*promotype.List[*redemption.StackingRules], error) {
			return sr.List(c.ctx(), c.projectID)
		})},
		{http.MethodGet, mp + "/stacking-rules/{stackingRulesId}", managementKey, withoutBody(func(c *call) (*redemption.StackingRules, error) {
			return sr.Get(c.ctx(), c.projectID, c.path("stackingRulesId"))
		})},
		{http.MethodPut, mp + "/stacking-rules/{stackingRulesId}", managementKey, withBody(func(c *call, in redemption.StackingRulesParams) (*redemption.StackingRules, error) {
			return sr.Update(c.ctx(), c.projectID, c.path("stackingRulesId"), in)
		})},
		{http.MethodDelete, mp + "/stacking-rules/{stackingRulesId}", managementKey, noContent(func(c *call) error {
			return sr.Delete(c.ctx(), c.projectID, c.path("stackingRulesId"))
		})},
	}
}

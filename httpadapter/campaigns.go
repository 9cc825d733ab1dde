package httpadapter

// campaignRoutes are the campaign, category, voucher and async action endpoints.
func (s *server) campaignRoutes() []route { return nil }

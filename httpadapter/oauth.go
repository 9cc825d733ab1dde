package httpadapter

// oauthRoutes are the OAuth token endpoints.
func (s *server) oauthRoutes() []route { return nil }

package httpadapter

// salesRoutes are the order and customer endpoints.
func (s *server) salesRoutes() []route { return nil }

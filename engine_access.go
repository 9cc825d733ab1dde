package promo

// accessServices are the OAuth token services.
type accessServices struct{}

func (e *Engine) wireAccess() {}

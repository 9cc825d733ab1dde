package promo

// salesServices are the customer and order services.
type salesServices struct{}

func (e *Engine) wireSales() {}

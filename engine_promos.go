package promo

// promoServices are the campaign, voucher and async action services.
type promoServices struct{}

func (e *Engine) wirePromos() {}

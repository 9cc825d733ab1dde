package promo_test

import (
	"testing"

	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
)

// TestProjectClientSettings: a project's client_* settings through the Go
// API on each store: the defaults of a project that sets none, those a
// create sets, an update changing only what it gives, a bad domain
// refused without change, and a caller's copy never changing the store.
func TestProjectClientSettings(t *testing.T) {
	eachStore(t, func(t *testing.T, fx fixture) {
		ps := fx.eng.Projects()
		def := must[*project.Project](t)(ps.Get(ctx, fx.project))
		diff(t, "defaults", project.DefaultClientSettings(), def.ClientSettings)

		p := must[*project.Project](t)(ps.Create(ctx, js[project.Params](t,
			`{"name":"Client shop","client_trusted_domains":["https://shop.example"],"client_redeem_enabled":false,"client_list_vouchers_enabled":true}`)))
		want := project.DefaultClientSettings()
		want.TrustedDomains, want.RedeemEnabled, want.ListVouchersEnabled = []string{"https://shop.example"}, false, true
		diff(t, "created", want, p.ClientSettings)
		diff(t, "read back", want, must[*project.Project](t)(ps.Get(ctx, p.ID)).ClientSettings)

		upd := must[*project.Project](t)(ps.Update(ctx, p.ID, js[project.UpdateParams](t, `{"client_loyalty_events_enabled":false}`)))
		want.LoyaltyEventsEnabled = false
		diff(t, "updated", want, upd.ClientSettings)
		upd.TrustedDomains[0] = "https://changed.example"
		diff(t, "aliasing", want, must[*project.Project](t)(ps.Get(ctx, p.ID)).ClientSettings)

		_, err := ps.Update(ctx, p.ID, project.UpdateParams{ClientSettingsParams: project.ClientSettingsParams{
			TrustedDomains: []string{""}, RedeemEnabled: promotype.Ptr(true)}})
		wantErr(t, err, 400, "invalid_payload")
		diff(t, "unchanged by a refused update", want, must[*project.Project](t)(ps.Get(ctx, p.ID)).ClientSettings)
	})
}

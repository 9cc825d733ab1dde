package promo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/storage/memory"
	"github.com/promoengine/promo/webhook"
)

// Webhooks: a configuration lists the events it wants; the dispatcher
// posts each one, signed with the project's webhook token, to its target.
// The receiver checks X-Voucherify-Signature before trusting the body.
func ExampleEngine_StartWebhookDispatcher() {
	ctx := context.Background()
	eng, err := promo.New(memory.New(), promo.WithWebhookTargets(webhook.TargetPolicy{AllowLoopback: true}))
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	p, err := eng.Projects().Create(ctx, project.Params{Name: "shop"})
	if err != nil {
		panic(err)
	}

	got := make(chan string, 1)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !webhook.Verify(p.WebhookToken, body, r.Header.Get("X-Voucherify-Signature")) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var env struct {
			Type string `json:"type"`
			Data struct {
				Campaign struct{ Name string } `json:"campaign"`
			} `json:"data"`
		}
		_ = json.Unmarshal(body, &env)
		got <- env.Type + " " + env.Data.Campaign.Name
	}))
	defer receiver.Close()

	if _, err := eng.Webhooks().Create(ctx, p.ID, webhook.Params{TargetURL: promo.Ptr(receiver.URL),
		Events: []string{"campaign.created"}}); err != nil {
		panic(err)
	}
	if err := eng.StartWebhookDispatcher(ctx); err != nil {
		panic(err)
	}
	if _, err := eng.Campaigns().Create(ctx, p.ID, params[campaign.Params](`{"name":"Summer","campaign_type":"PROMOTION"}`)); err != nil {
		panic(err)
	}
	fmt.Println(<-got)
	// Output: campaign.created Summer
}

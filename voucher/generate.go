package voucher

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// Generation makes the vouchers of a campaign chunk by chunk (the work of a
// CAMPAIGN.VOUCHERS_GENERATE action): each chunk is a batch of vouchers
// with random codes of the generator and ids of the engine's generator.
// It reuses one batch, so a chunk costs a few allocations whatever its
// size. A Generation is not safe for concurrent use.
type Generation struct {
	template *Voucher
	gen      *Generator
	ids      *idMaker
	batch    Batch
}

// NewGeneration returns a generation of vouchers like template (every field
// but id and code) with codes of gen.
func (s *Service) NewGeneration(template *Voucher, gen *Generator) *Generation {
	return &Generation{template: template, gen: gen, ids: newIDMaker(s.env.IDs)}
}

// Next returns a batch of n new vouchers created at now. The batch is
// reused by the following call.
func (g *Generation) Next(n int, now promotype.Time) *Batch {
	t := g.template.Clone()
	t.CreatedAt = now
	g.batch.Template = t
	g.batch.Reset()
	g.ids.startChunk(n)
	for range n {
		g.batch.appendID(g.ids.appendID)
		g.batch.appendCode(g.gen.Append)
	}
	return &g.batch
}

// TemplateFor returns the template of the vouchers a campaign creation
// generates, with the generator of its codes checked for count codes.
func TemplateFor(c *campaign.Campaign, count int64, now promotype.Time) (*Voucher, *Generator, error) {
	if c.Voucher == nil {
		return nil, nil, campaign.InvalidCampaign("A PROMOTION campaign holds promotion tiers, not vouchers")
	}
	gen, err := NewGenerator(c.Voucher.CodeConfig)
	if err != nil {
		return nil, nil, err
	}
	if err := gen.CheckCapacity(count); err != nil {
		return nil, nil, err
	}
	return Template(c, now), gen, nil
}

// checkItem checks what every imported voucher item must carry: a code,
// well formed, and valid common fields.
func checkItem(code *string, common Common) error {
	if code == nil {
		return promotype.InvalidPayload("Property 'code' is required")
	}
	if err := CheckCode(".code", *code); err != nil {
		return err
	}
	return common.check()
}

// ImportVoucher returns the voucher item makes in campaign c (not stored):
// the campaign's settings with the item's fields. Its error is the reason
// the item cannot be imported.
func (s *Service) ImportVoucher(ctx context.Context, st ServiceStore, c *campaign.Campaign, item ImportItem, now promotype.Time) (*Voucher, error) {
	if err := checkItem(item.Code, item.Common); err != nil {
		return nil, err
	}
	v := Template(c, now)
	v.ID = s.env.IDs.NewID(promotype.PrefixVoucher)
	v.Code = *item.Code
	if err := typed(v, nil, item.Gift, item.LoyaltyCard, false); err != nil {
		return nil, err
	}
	if err := item.Common.apply(v); err != nil {
		return nil, err
	}
	if err := s.setCategory(ctx, st, c.ProjectID, v, item.Category, item.CategoryID); err != nil {
		return nil, err
	}
	return v, nil
}

// CheckCodeSpace reports whether the codes of campaign c can hold count
// vouchers (TemplateFor's check), for the campaigns API to refuse a
// creation with 400 invalid_code_config before anything is stored.
func CheckCodeSpace(c *campaign.Campaign, count int64) error {
	_, _, err := TemplateFor(c, count, c.CreatedAt)
	return err
}

package redemption

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strings"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// VoucherRedemptionsParams page GET /v1/vouchers/{code}/redemption: limit
// 1–100 and page (from 1) as the answer's url documents them. Both zero:
// every entry (ForVoucher reads them all; the adapter streams them).
type VoucherRedemptionsParams struct {
	Limit, Page int
}

// voucherEntriesPage is how many entries one read of a stream takes.
const voucherEntriesPage = promotype.MaxLimit

// ForVoucher lists the whole ledger of the voucher with code (or id) code:
// its redemptions, failures and rollbacks, newest first. It reads the
// entries a hundred at a time; for a voucher with very many entries,
// ForVoucherPage reads one page and StreamForVoucher writes them all
// without holding them.
func (s *RedemptionService) ForVoucher(ctx context.Context, projectID, code string) (*VoucherRedemptions, error) {
	st, err := s.StreamForVoucher(ctx, projectID, code)
	if err != nil {
		return nil, err
	}
	out := st.head()
	out.RedemptionEntries = []*Redemption{}
	err = st.each(func(r *Redemption) error {
		out.RedemptionEntries = append(out.RedemptionEntries, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Total = len(out.RedemptionEntries)
	return out, nil
}

// ForVoucherPage is one page of ForVoucher (limit 1–100, default 10; page
// from 1); total counts every entry.
func (s *RedemptionService) ForVoucherPage(ctx context.Context, projectID, code string, p VoucherRedemptionsParams) (*VoucherRedemptions, error) {
	if p.Limit == 0 {
		p.Limit = promotype.DefaultLimit
	}
	q, err := promotype.ListParams{Limit: p.Limit, Page: p.Page}.Query(RedemptionListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	v, err := s.findVoucher(ctx, projectID, code)
	if err != nil {
		return nil, err
	}
	q.Must = []promotype.Condition{{Field: "voucher_id", Op: promotype.OpIn, Values: []string{v.ID}}}
	rs, total, err := s.store.ListRedemptions(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		present(r)
	}
	out := voucherHead(v)
	out.Total, out.RedemptionEntries = total, rs
	return out, nil
}

func (s *RedemptionService) findVoucher(ctx context.Context, projectID, code string) (*voucher.Voucher, error) {
	v, err := s.store.FindVoucherByCode(ctx, projectID, code)
	if errors.Is(err, promotype.ErrNotFound) && strings.HasPrefix(code, promotype.PrefixVoucher) {
		v, err = s.store.GetVoucher(ctx, projectID, code)
	}
	return v, err
}

func voucherHead(v *voucher.Voucher) *VoucherRedemptions {
	out := &VoucherRedemptions{Quantity: v.RedemptionQuantity, RedeemedQuantity: v.RedeemedQuantity, Object: "list",
		URL: "/v1/vouchers/" + url.PathEscape(v.Code) + "/redemptions?page=1&limit=10", DataRef: "redemption_entries",
		RedemptionEntries: []*Redemption{}}
	if v.Gift != nil {
		spent := v.Gift.Amount - v.Gift.SubtractedAmount - v.Gift.Balance
		out.RedeemedAmount = &spent
	}
	return out
}

// VoucherRedemptionsStream is every entry of a voucher's ledger, read a
// page at a time while it is written (WriteJSON), so that a voucher with
// millions of redemptions answers in bounded memory. Entries are the rows
// dated up to the moment the stream was opened, newest first.
type VoucherRedemptionsStream struct {
	s         *RedemptionService
	ctx       context.Context
	projectID string
	v         *voucher.Voucher
	total     int
	q         promotype.Query
}

// StreamForVoucher opens the stream of the ledger of the voucher with code
// (or id) code; not_found for an unknown code.
func (s *RedemptionService) StreamForVoucher(ctx context.Context, projectID, code string) (*VoucherRedemptionsStream, error) {
	v, err := s.findVoucher(ctx, projectID, code)
	if err != nil {
		return nil, err
	}
	// Rows written after now sort before the first page: bound the stream
	// to the rows dated up to now, so that its offsets do not shift.
	until := promotype.NewTime(s.env.Clock.Now().Add(1e6))
	q := promotype.Query{Limit: voucherEntriesPage, OrderBy: "created_at", Desc: true, Must: []promotype.Condition{
		{Field: "voucher_id", Op: promotype.OpIn, Values: []string{v.ID}},
		{Field: "created_at", Op: promotype.OpBefore, At: until}}}
	count := q
	count.Limit = 1
	_, total, err := s.store.ListRedemptions(ctx, projectID, count)
	if err != nil {
		return nil, err
	}
	return &VoucherRedemptionsStream{s: s, ctx: ctx, projectID: projectID, v: v, total: total, q: q}, nil
}

func (st *VoucherRedemptionsStream) head() *VoucherRedemptions {
	out := voucherHead(st.v)
	out.Total = st.total
	return out
}

// each calls fn with every entry, newest first, a page read at a time.
func (st *VoucherRedemptionsStream) each(fn func(*Redemption) error) error {
	q := st.q
	for {
		rs, _, err := st.s.store.ListRedemptions(st.ctx, st.projectID, q)
		if err != nil {
			return err
		}
		for _, r := range rs {
			if err := fn(present(r)); err != nil {
				return err
			}
		}
		if len(rs) < q.Limit {
			return nil
		}
		q.Offset += len(rs)
	}
}

// WriteJSON writes the answer of GET /v1/vouchers/{code}/redemption with
// every entry to w in pieces of about chunk bytes.
func (st *VoucherRedemptionsStream) WriteJSON(w io.Writer, chunk int) error {
	head, err := json.Marshal(st.head())
	if err != nil {
		return err
	}
	// The head ends with "redemption_entries":[]}: open the array there.
	cut := bytes.LastIndex(head, []byte("[]}"))
	var buf bytes.Buffer
	buf.Write(head[:cut+1])
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	first := true
	err = st.each(func(r *Redemption) error {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		if err := enc.Encode(r); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // the encoder's newline
		if buf.Len() >= chunk {
			if _, err := w.Write(buf.Bytes()); err != nil {
				return err
			}
			buf.Reset()
		}
		return nil
	})
	if err != nil {
		return err
	}
	buf.WriteString("]}\n")
	_, err = w.Write(buf.Bytes())
	return err
}

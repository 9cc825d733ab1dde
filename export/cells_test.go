package export

import (
	"math"
	"testing"

	"github.com/promoengine/promo/promotype"
)

func TestMoneyCells(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0.00"}, {5, "0.05"}, {200000, "2000.00"}, {12345, "123.45"}, {-1, "-0.01"}, {-12345, "-123.45"},
		{math.MaxInt64, "92233720368547758.07"}, {math.MinInt64, "-92233720368547758.08"},
	} {
		if got := moneyCell(tc.n); got != tc.want {
			t.Errorf("moneyCell(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct{ d, want string }{
		{"1000", "10.00"}, {"1000.00", "10.00"}, {"12.5", "0.13"}, {"-250", "-2.50"}, {"1e20", "1000000000000000000.00"},
	} {
		d := promotype.NewDecimal(tc.d)
		if got := decimalMoneyCell(&d); got != tc.want {
			t.Errorf("decimalMoneyCell(%s) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestHeader(t *testing.T) {
	t.Parallel()
	for field, want := range map[string]string{
		"id": "ID", "voucher_type": "Voucher Type", "campaign_id": "Campaign ID", "qr_code": "QR Code",
		"address_line_1": "Address Line 1", "metadata.shop_name": "metadata.shop_name",
	} {
		if got := Header(field); got != want {
			t.Errorf("Header(%q) = %q, want %q", field, got, want)
		}
	}
}

// TestSafeCell: a cell a spreadsheet could run as a formula gets a leading
// single quote; a plain number, negative ones included, and other text
// are written as they are.
func TestSafeCell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`=HYPERLINK("http://x.example","y")`, `'=HYPERLINK("http://x.example","y")`},
		{`=cmd|' /C calc'!A0`, `'=cmd|' /C calc'!A0`},
		{"+SUM(1,2)", "'+SUM(1,2)"},
		{"@SUM(1,2)", "'@SUM(1,2)"},
		{"-2+3", "'-2+3"},
		{"-", "'-"},
		{"\t=1+1", "'\t=1+1"},
		{"\r=1+1", "'\r=1+1"},
		{"+5", "'+5"},
		{"-1,000", "'-1,000"},
		{"-12.", "'-12."},
		{"-e5", "'-e5"},
		{"-0.01", "-0.01"},
		{"-92233720368547758.08", "-92233720368547758.08"},
		{"-5", "-5"},
		{"-1.5e+10", "-1.5e+10"},
		{"2000.00", "2000.00"},
		{"", ""},
		{"plain", "plain"},
		{"'=already", "'=already"},
		{" =1+1", " =1+1"},
	} {
		if got := safeCell(tc.in); got != tc.want {
			t.Errorf("safeCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

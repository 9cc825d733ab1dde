package webhook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
)

// ContentType is the content type of a delivery.
const ContentType = "application/json"

// maxDrain is how much of a receiver's answer is read (and thrown away) so
// that the connection can be reused.
const maxDrain = 64 << 10

// post sends one try of x: the envelope, signed with the project's webhook
// token, to the sendout's target. It returns the status code answered (0
// when there was no answer) and an error unless it was 2xx.
func (d *Dispatcher) post(ctx context.Context, x *Delivery) (int, error) {
	s := x.Sendout
	if err := d.cfg.policy.CheckURL(s.TargetURL); err != nil {
		return 0, fmt.Errorf("target_url %w", err)
	}
	body, err := Body(s, x.Event)
	if err != nil {
		return 0, fmt.Errorf("encoding the envelope: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, d.cfg.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.TargetURL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", ContentType)
	req.Header.Set(SignatureHeader, Sign(x.Secret, body))
	req.Header.Set("User-Agent", "promo-webhooks/1.0")
	resp, err := d.cfg.client.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	_ = resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("the receiver answered %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

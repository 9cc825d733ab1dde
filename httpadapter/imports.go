package httpadapter

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/imports"
	"github.com/promoengine/promo/promotype"
)

// importRoutes are the bulk async actions: imports (CSV uploads and item
// lists) and bulk and metadata updates of products, SKUs, customers,
// vouchers and orders. Each answers {async_action_id} (200 or 202 as the
// hosted service does).
func (s *server) importRoutes() []route {
	im := s.engine.Imports()
	return []route{
		{http.MethodPost, "/v1/products/importCSV", appKey, csvUpload(http.StatusOK, func(c *call, r io.Reader) (*async.Ref, error) { return im.ImportProductsCSV(c.actx(), c.projectID, r) })},
		{http.MethodPost, "/v1/skus/importCSV", appKey, csvUpload(http.StatusOK, func(c *call, r io.Reader) (*async.Ref, error) { return im.ImportSKUsCSV(c.actx(), c.projectID, r) })},
		{http.MethodPost, "/v1/customers/importCSV", appKey, csvUpload(http.StatusAccepted, func(c *call, r io.Reader) (*async.Ref, error) { return im.ImportCustomersCSV(c.actx(), c.projectID, r) })},
		{http.MethodPost, "/v1/vouchers/importCSV", appKey, csvUpload(http.StatusAccepted, func(c *call, r io.Reader) (*async.Ref, error) { return im.ImportVouchersCSV(c.actx(), c.projectID, r) })},
		{http.MethodPost, "/v1/campaigns/{campaignId}/importCSV", appKey, csvUpload(http.StatusOK, func(c *call, r io.Reader) (*async.Ref, error) {
			return im.ImportCampaignVouchersCSV(c.actx(), c.projectID, c.path("campaignId"), r)
		})},
		{http.MethodPost, "/v1/products/bulk/async", appKey, arrayAction(http.StatusAccepted, im.UpdateProductsInBulk)},
		{http.MethodPost, "/v1/customers/bulk/async", appKey, arrayAction(http.StatusAccepted, im.UpdateCustomersInBulk)},
		{http.MethodPost, "/v1/vouchers/bulk/async", appKey, arrayAction(http.StatusAccepted, im.UpdateVouchersInBulk)},
		{http.MethodPost, "/v1/vouchers/import", appKey, arrayAction(http.StatusAccepted, im.ImportVouchers)},
		{http.MethodPost, "/v1/orders/import", appKey, arrayAction(http.StatusOK, im.ImportOrders)},
		{http.MethodPost, "/v1/products/metadata/async", appKey, objectAction(im.UpdateProductsMetadata)},
		{http.MethodPost, "/v1/customers/metadata/async", appKey, objectAction(im.UpdateCustomersMetadata)},
		{http.MethodPost, "/v1/vouchers/metadata/async", appKey, objectAction(im.UpdateVouchersMetadata)},
	}
}

// arrayAction is an action started with a JSON array body of items; an
// empty body is no items (what the SDKs send for an empty list: the bulk
// updates take it, the imports refuse it).
func arrayAction[T any](status int, start func(ctx context.Context, projectID string, items []T) (*async.Ref, error)) handler {
	return func(c *call) (int, any, error) {
		var items []T
		empty, err := emptyBody(c)
		if err != nil {
			return 0, nil, err
		}
		if !empty {
			if err := decodeArrayBody(c, &items); err != nil {
				return 0, nil, err
			}
		}
		ref, err := start(c.actx(), c.projectID, items)
		return status, ref, err
	}
}

// emptyBody reports whether the request's body is empty or only white
// space; otherwise the body stays readable.
func emptyBody(c *call) (bool, error) {
	if c.r.Body == nil {
		return true, nil
	}
	data, err := io.ReadAll(http.MaxBytesReader(unwrap(c.w), c.r.Body, c.maxBody))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return false, promotype.InvalidPayload("Payload must NOT be larger than %d bytes", c.maxBody)
		}
		return false, promotype.InvalidPayload("Cannot read the request body: %v", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return true, nil
	}
	c.r.Body = io.NopCloser(bytes.NewReader(data))
	return false, nil
}

// objectAction is an action started with a JSON object body (202).
func objectAction[T any](start func(ctx context.Context, projectID string, in T) (*async.Ref, error)) handler {
	return func(c *call) (int, any, error) {
		var in T
		if err := decodeBody(c.w, c.r, c.maxBody, &in); err != nil {
			return 0, nil, err
		}
		ref, err := start(c.actx(), c.projectID, in)
		return http.StatusAccepted, ref, err
	}
}

// maxUploadOverhead is what a multipart body may hold besides its CSV
// file (boundaries, headers, other fields).
const maxUploadOverhead = 1 << 20

// csvUpload is an action started by a multipart/form-data upload whose
// part "file" is a CSV file: the part is read as a stream (bounded by
// imports.MaxCSVBytes: 413 beyond), other parts are skipped.
func csvUpload(status int, start func(c *call, r io.Reader) (*async.Ref, error)) handler {
	return func(c *call) (int, any, error) {
		mt, _, err := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
		if err != nil || mt != "multipart/form-data" {
			return 0, nil, promotype.Newf(http.StatusUnsupportedMediaType, "unsupported_media_type", "Unsupported media type",
				"Content-Type %s is not supported; send multipart/form-data with the CSV file in the part file", c.r.Header.Get("Content-Type"))
		}
		c.r.Body = http.MaxBytesReader(unwrap(c.w), c.r.Body, imports.MaxCSVBytes+maxUploadOverhead)
		mr, err := c.r.MultipartReader()
		if err != nil {
			return 0, nil, promotype.InvalidPayload("The multipart body cannot be read: %v", err)
		}
		for {
			part, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				return 0, nil, promotype.InvalidPayload("Payload must have a part file holding the CSV file")
			}
			if err != nil {
				if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
					return 0, nil, imports.ErrTooLarge()
				}
				return 0, nil, promotype.InvalidPayload("The multipart body cannot be read: %v", err)
			}
			if part.FormName() != "file" {
				continue
			}
			ref, err := start(c, part)
			return status, ref, err
		}
	}
}

// A partner's server in Go, on the client that Redocly CLI generates from the BFF's /openapi.json into the
// package esimembed (generated-client.test.ts generates it beside this file, builds both and runs them): it
// reads its account, takes the payment of the traveller's checkout (payment started, confirmed under its own
// reference), finds it by that reference, and reads what the BFF refuses — an unknown checkout, a wrong secret.
// It prints what it read as one JSON object, each answer as the client decoded it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"esim-embed.test/partner/esimembed"
)

// refusal is what a refused call tells: its HTTP status and the error envelope's code.
type refusal struct {
	Status int    `json:"status"`
	Code   string `json:"code"`
}

func refusalOf(err error) refusal {
	var apiError *esimembed.APIError
	if !errors.As(err, &apiError) {
		fail("not an API error", err)
	}
	envelope, _ := apiError.Body.(map[string]any)
	detail, _ := envelope["error"].(map[string]any)
	code, _ := detail["code"].(string)
	return refusal{Status: apiError.Status, Code: code}
}

func fail(what string, err error) {
	var apiError *esimembed.APIError
	if errors.As(err, &apiError) {
		body, _ := json.Marshal(apiError.Body)
		fmt.Fprintf(os.Stderr, "%s: %d %s: %s\n", what, apiError.Status, apiError.URL, body)
	} else {
		fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
	}
	os.Exit(1)
}

func must(answer any, err error) any {
	if err != nil {
		fail("call refused", err)
	}
	return answer
}

func ptr(text string) *string { return &text }

func clientWith(secret string) *esimembed.Client {
	return esimembed.New(esimembed.Config{
		ServerURL: os.Getenv("BFF_URL"),
		Auth:      esimembed.Auth{APIKey: map[string]func() string{"partnerSecret": func() string { return secret }}},
	})
}

func main() {
	ctx := context.Background()
	client := clientWith(os.Getenv("PARTNER_SECRET"))
	widget := &esimembed.ReadPartnerAccountParams{WidgetId: ptr(os.Getenv("WIDGET_ID"))}
	checkoutID := os.Getenv("CHECKOUT_ID")
	reference := os.Getenv("PAYMENT_REFERENCE")

	out := map[string]any{}
	out["health"] = must(client.Health(ctx))
	out["account"] = must(client.ReadPartnerAccount(ctx, widget))
	out["awaiting"] = must(client.ReadPartnerCheckout(ctx, checkoutID))
	out["started"] = must(client.StartPartnerPayment(ctx, checkoutID))
	out["confirmed"] = must(client.ConfirmPartnerCheckout(ctx, checkoutID, map[string]string{"paymentReference": reference}))
	out["found"] = must(client.ListPartnerCheckouts(ctx, &esimembed.ListPartnerCheckoutsParams{PaymentReference: &reference}))

	_, err := client.ReadPartnerCheckout(ctx, "chk_unknown000000")
	out["unknown"] = refusalOf(err)
	_, err = clientWith("not-the-secret").ReadPartnerAccount(ctx, widget)
	out["wrongSecret"] = refusalOf(err)

	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail("print", err)
	}
}

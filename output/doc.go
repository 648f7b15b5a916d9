// Package output owns how orgctl shows data: terminal detection, the
// table/json/yaml formats, --jq and --template, and stderr notices.
//
// It knows nothing of the API: it is handed raw JSON (the API's `data`,
// exactly as received) plus a column description, and must not import
// client, cmd or ratebudget.
package output

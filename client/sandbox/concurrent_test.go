package sandbox

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Concurrent changes to one object each get a whole answer: an answer
// that shares maps with the state is encoded before the next request
// changes them (go test -race caught the sandbox encoding after).
func TestConcurrentWritesToOneObject(t *testing.T) {
	api := New(Options{})
	hs := httptest.NewServer(api)
	defer hs.Close()
	tok := api.AdminToken()
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			body := fmt.Sprintf(`{"name":"department","value":"d%d"}`, i)
			req, _ := http.NewRequest(http.MethodPost, hs.URL+"/api/v2/users/"+userID(1)+"/user_attributes", strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("status %d", resp.StatusCode)
			}
		})
	}
	wg.Wait()
}

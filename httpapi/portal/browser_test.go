//go:build browser

package portal_test

// The browser suite drives the portal in headless Chromium (the Debian
// package) through chromedp: an owner and an operator each sign in, use
// every page and sign out, axe-core checks every page, and every page is
// photographed at 1280 and 390 px. Run it with
//
//	go test -tags browser -run Browser ./httpapi/portal/
//
// after `npm ci` in httpapi/portal/testdata/browser (axe-core). The
// screenshots go to $TOOLKIT_SCREENSHOTS_DIR (default: a new temporary
// directory, printed).

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentfinance/toolkit/httpapi"
)

// chromiumPath finds headless Chromium: TOOLKIT_CHROMIUM or the PATH.
func chromiumPath(t *testing.T) string {
	if p := os.Getenv("TOOLKIT_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no chromium found: install the Debian package chromium (.ci/run does)")
	return ""
}

// axeSource is axe-core's browser bundle, installed by npm ci.
func axeSource(t *testing.T) string {
	p := os.Getenv("TOOLKIT_AXE_JS")
	if p == "" {
		p = filepath.Join("testdata", "browser", "node_modules", "axe-core", "axe.min.js")
	}
	b, err := os.ReadFile(p)
	require.NoError(t, err, "axe-core is missing: run npm ci in httpapi/portal/testdata/browser")
	return string(b)
}

// screenshotDir is where the pages' pictures go.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("TOOLKIT_SCREENSHOTS_DIR")
	if dir == "" {
		var err error
		dir, err = os.MkdirTemp("", "portal-screenshots-")
		require.NoError(t, err)
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	t.Logf("screenshots: %s", dir)
	fmt.Printf("portal screenshots are in %s\n", dir)
	return dir
}

// tab is one headless Chromium tab on the site.
type tab struct {
	t    *testing.T
	ctx  context.Context
	base string
	axe  string
	dir  string
}

func newTab(t *testing.T, s *site, axe, dir string) *tab {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(t)), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	return &tab{t: t, ctx: ctx, base: s.srv.URL, axe: axe, dir: dir}
}

// do runs steps in the tab.
func (b *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	require.NoError(b.t, chromedp.Do(b.ctx, steps...))
}

// get runs one action that returns a value.
func get[T any](b *tab, a chromedp.Action[T]) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, a)
	require.NoError(b.t, err)
	return v
}

// open loads a portal page and waits for its main landmark.
func (b *tab) open(path string) {
	b.t.Helper()
	b.do(chromedp.Navigate(b.base+path), chromedp.WaitVisible(chromedp.CSS("main")))
}

// text returns the text of the first element matching sel.
func (b *tab) text(sel string) string {
	b.t.Helper()
	return get(b, chromedp.Text(chromedp.CSS(sel)))
}

// submit fills fields (selector -> value) and clicks a button, then waits
// for the next page.
func (b *tab) submit(fields map[string]string, button string) {
	b.t.Helper()
	var steps []chromedp.Action[chromedp.Void]
	for sel, v := range fields {
		js, err := json.Marshal(v)
		require.NoError(b.t, err)
		q, err := json.Marshal(sel)
		require.NoError(b.t, err)
		steps = append(steps, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%s).value = %s`, q, js)))
	}
	steps = append(steps, chromedp.Evaluate[chromedp.Void](`window.__portalPage = true`), chromedp.Click(chromedp.CSS(button)))
	b.do(steps...)
	require.Eventually(b.t, func() bool {
		gone, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`window.__portalPage !== true && document.readyState === "complete"`))
		return err == nil && gone
	}, 10*time.Second, 50*time.Millisecond, "the form led to a new page")
	b.do(chromedp.WaitVisible(chromedp.CSS("main")))
}

// shoot photographs the page at 1280 and 390 px and checks it with axe.
func (b *tab) shoot(name string) {
	b.t.Helper()
	for _, width := range []int64{1280, 390} {
		b.do(chromedp.EmulateViewport(width, 900), chromedp.Sleep(150*time.Millisecond))
		png := get(b, chromedp.FullScreenshot(100))
		require.NoError(b.t, os.WriteFile(filepath.Join(b.dir, fmt.Sprintf("%s-%d.png", name, width)), png, 0o644))
		if width == 390 {
			overflow := get(b, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`))
			assert.False(b.t, overflow, "%s: the page fits a 390 px phone (wide tables scroll inside their box)", name)
		}
	}
	b.do(chromedp.EmulateViewport(1280, 900))
	b.checkAccessibility(name)
}

// axeResult is the part of axe.run's answer the suite reads.
type axeResult struct {
	Violations []struct {
		ID     string `json:"id"`
		Impact string `json:"impact"`
		Help   string `json:"help"`
		Nodes  []struct {
			Target []any `json:"target"`
		} `json:"nodes"`
	} `json:"violations"`
}

// checkAccessibility runs axe-core in the page: no serious or critical
// violation is allowed.
func (b *tab) checkAccessibility(name string) {
	b.t.Helper()
	if !get(b, chromedp.Evaluate[bool](`typeof axe !== "undefined"`)) {
		b.do(chromedp.Evaluate[chromedp.Void](b.axe + ";void 0"))
	}
	raw := get(b, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r))`, chromedp.EvalAwaitPromise))
	var res axeResult
	require.NoError(b.t, json.Unmarshal([]byte(raw), &res))
	for _, v := range res.Violations {
		if v.Impact == "serious" || v.Impact == "critical" {
			targets := []string{}
			for _, n := range v.Nodes {
				targets = append(targets, fmt.Sprint(n.Target...))
			}
			b.t.Errorf("%s: axe %s violation %s (%s) at %s", name, v.Impact, v.ID, v.Help, strings.Join(targets, "; "))
		}
	}
}

// chartPixels waits for a chart and counts the pixels its canvas painted.
func (b *tab) chartPixels(figure string) int {
	b.t.Helper()
	b.do(chromedp.WaitVisible(chromedp.CSS(figure + "[data-drawn] canvas")))
	drawn := get(b, chromedp.AttributeValue(chromedp.CSS(figure), "data-drawn"))
	require.Equal(b.t, "yes", drawn.Value, "%s: the chart has data to draw", figure)
	return get(b, chromedp.Evaluate[int](`(() => {
		const c = document.querySelector(`+"`"+figure+" canvas`"+`);
		const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let n = 0;
		for (let i = 3; i < d.length; i += 4) { if (d[i] > 0) n++; }
		return n;
	})()`))
}

func TestBrowserOwnerAndOperator(t *testing.T) {
	s := newSite(t, httpapi.Options{})
	ids, keys, ownerKey := s.owner("browser-owner")
	for range 3 {
		require.Equal(t, http.StatusOK, s.call(keys[0]))
	}
	require.Equal(t, http.StatusOK, s.call(keys[1]))
	axe, dir := axeSource(t), screenshotDir(t)

	t.Run("owner", func(t *testing.T) {
		b := newTab(t, s, axe, dir)
		b.open("/portal/")
		b.shoot("signin")
		b.submit(map[string]string{"#owner_key": ownerKey}, `form[action="/portal/session"] button`)
		require.Contains(t, b.text("h1"), "Agents")
		assert.Contains(t, b.text(`tr[data-agent="`+ids[0]+`"] .sandbox-balance`), "$4.991", "5.00 less three calls")
		assert.Contains(t, b.text(`tr[data-agent="`+ids[1]+`"] .sandbox-balance`), "$2.497")
		b.shoot("agents")

		b.do(chromedp.Click(chromedp.CSS(`tr[data-agent="`+ids[0]+`"] a`)), chromedp.WaitVisible(chromedp.CSS("#limits-form")))
		assert.Greater(t, b.chartPixels(`figure[data-chart="usage-data"]`), 200, "the usage chart is drawn")
		b.shoot("agent")

		b.submit(map[string]string{"#daily_limit": "0.009"}, `#limits-form button`)
		assert.Contains(t, b.text(".flash"), "Limits saved")
		assert.Equal(t, http.StatusForbidden, s.call(keys[0]), "0.009 spent today: the API enforces the new daily limit of 0.009")
		b.submit(map[string]string{"#daily_limit": ""}, `#limits-form button`)
		assert.Equal(t, http.StatusOK, s.call(keys[0]), "no limit again")

		b.submit(nil, "#suspend")
		assert.Equal(t, "suspended", b.text("#agent-mode"))
		assert.Equal(t, http.StatusForbidden, s.call(keys[0]))
		b.submit(nil, "#resume")
		assert.Equal(t, "sandbox", b.text("#agent-mode"))
		assert.Equal(t, http.StatusOK, s.call(keys[0]))

		b.submit(nil, "#rotate")
		newKey := get(b, chromedp.Value(chromedp.CSS("#new-key")))
		assert.Equal(t, http.StatusUnauthorized, s.call(keys[0]), "the old key stops working")
		assert.Equal(t, http.StatusOK, s.call(newKey))
		b.shoot("new-key")

		b.open("/portal/spend")
		assert.Greater(t, b.chartPixels(`figure[data-chart="spend-data"]`), 200, "the spend chart is drawn")
		b.shoot("spend")
		b.open("/portal/topup")
		assert.Contains(t, b.text("main"), "TreasuryWa11et")
		b.shoot("topup")

		b.submit(nil, ".signout button")
		b.open("/portal/agents")
		assert.Contains(t, b.text("main"), "Please sign in", "signed out: refused")
	})

	t.Run("operator", func(t *testing.T) {
		b := newTab(t, s, axe, dir)
		b.open("/portal/")
		b.submit(map[string]string{"#admin_key": adminKey}, `#admin_key ~ button`)
		require.Contains(t, b.text("h1"), "Platform")
		assert.Greater(t, b.chartPixels(`figure[data-chart="latency-data"]`), 200, "the latency chart is drawn")
		b.shoot("operator")
		b.open("/portal/admin/events?category=authentication")
		b.shoot("events")
		b.open("/portal/admin/owners")
		assert.Contains(t, b.text("#owners"), "browser-owner")
		b.shoot("owners")
		b.open("/portal/admin/owners/browser-owner")
		b.submit(map[string]string{"#daily-" + ids[1]: "0.006"}, `form[action="/portal/admin/agents/`+ids[1]+`/ceilings"] button`)
		assert.Contains(t, b.text(".flash"), "Ceilings of "+ids[1])
		require.Equal(t, http.StatusOK, s.call(keys[1]))
		assert.Equal(t, http.StatusForbidden, s.call(keys[1]), "the ceiling brought the daily limit down to 0.006")
		b.shoot("owner")
		b.submit(nil, ".signout button")
		b.open("/portal/admin")
		assert.Contains(t, b.text("main"), "Please sign in", "signed out: refused")
	})
}

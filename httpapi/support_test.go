package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit/support"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func admin() map[string]string { return map[string]string{"X-Admin-Key": adminKey} }

// ticket opens a ticket and returns its reference.
func (e *env) ticket(k, subject, priority string) string {
	e.t.Helper()
	status, m := e.do("POST", "/v1/support/ticket", key(k),
		`{"subject":"`+subject+`","description":"Details of `+subject+`\nline two","priority":"`+priority+`","category":"billing"}`)
	require.Equal(e.t, http.StatusCreated, status, m)
	return m["ticket_id"].(string)
}

func TestSupportCreatesAnswer201(t *testing.T) {
	e := newEnv(t)
	agentID, k := e.register("acme")

	status, fb := e.do("POST", "/v1/support/feedback", key(k), `{"rating":5,"message":"Great sizing tool","category":"tools"}`)
	require.Equal(t, http.StatusCreated, status, fb)
	assert.Regexp(t, `^fb_[a-z0-9]{16}$`, fb["id"])
	assert.Equal(t, "feedback", fb["type"])
	assert.Equal(t, agentID, fb["agent_id"])
	assert.EqualValues(t, 5, fb["rating"])
	assert.Equal(t, "Great sizing tool", fb["message"])
	assert.Equal(t, "received", fb["status"])

	status, tk := e.do("POST", "/v1/support/ticket", key(k),
		`{"subject":"Charged twice","description":"Two debits for one call.\n\tSee tx_1","priority":"urgent","category":"billing"}`)
	require.Equal(t, http.StatusCreated, status, tk)
	assert.Regexp(t, `^sup_[a-z0-9]{16}$`, tk["id"])
	assert.Regexp(t, `^SR-[0-9]{6}$`, tk["ticket_id"])
	assert.Equal(t, "support", tk["type"])
	assert.Equal(t, "open", tk["status"])
	assert.Equal(t, "Two debits for one call.\n\tSee tx_1", tk["description"])
	assert.Equal(t, tk["created_at"], tk["updated_at"])

	status, sg := e.do("POST", "/v1/support/suggestion", key(k),
		`{"title":"Sortino","description":"Add Sortino to basic eval","use_case":"Compare systems","priority_for_agent":"important"}`)
	require.Equal(t, http.StatusCreated, status, sg)
	assert.Equal(t, "suggestion", sg["type"])
	assert.Equal(t, "received", sg["status"])
	assert.Equal(t, "Compare systems", sg["use_case"])

	status, en := e.do("POST", "/v1/support/enterprise", key(k), `{"organization_name":"Acme Capital","contact_email":"cto@acme.example",
		"description":"Desk of 40 agents","requirements":["SSO","99.9% SLA"],"timeline":"Q3"}`)
	require.Equal(t, http.StatusCreated, status, en)
	assert.Equal(t, "enterprise", en["type"])
	assert.Equal(t, "cto@acme.example", en["contact_email"])
	assert.Equal(t, []any{"SSO", "99.9% SLA"}, en["requirements"])
	assert.Nil(t, en["budget_range"], "echoed as null when not sent")

	status, bug := e.do("POST", "/v1/support/bug", key(k), `{"title":"NaN in Kelly","description":"Kelly returns NaN",
		"steps_to_reproduce":"call calculate_kelly with [1,1]","expected_behavior":"a number","actual_behavior":"NaN",
		"tool_name":"calculate_kelly"}`)
	require.Equal(t, http.StatusCreated, status, bug)
	assert.Equal(t, "bug", bug["type"])
	assert.Equal(t, "calculate_kelly", bug["tool_name"])
	assert.Nil(t, bug["error_message"])

	status, subs := e.do("GET", "/v1/admin/support/submissions", admin(), "")
	require.Equal(t, http.StatusOK, status, subs)
	assert.EqualValues(t, 4, subs["count"], "feedback, suggestion, inquiry and bug; tickets are listed apart")
	first := subs["submissions"].([]any)[0].(map[string]any)
	assert.Equal(t, "bug", first["type"], "newest first")
	assert.Equal(t, "NaN", first["bug"].(map[string]any)["actual_behavior"], "opened for the administrator")
	status, subs = e.do("GET", "/v1/admin/support/submissions?type=enterprise&agent_id="+agentID, admin(), "")
	require.Equal(t, http.StatusOK, status, subs)
	require.EqualValues(t, 1, subs["count"])
	assert.Equal(t, "cto@acme.example", subs["submissions"].([]any)[0].(map[string]any)["enterprise"].(map[string]any)["contact_email"])
}

func TestSupportTicketsAreOwnAndPaged(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	refs := []string{e.ticket(k, "first", "low"), e.ticket(k, "second", "high"), e.ticket(k, "third", "medium")}
	// Another agent of the same owner cannot see them.
	status, reg := e.do("POST", "/v1/agents/register", key(k), `{"owner_id":"acme","agent_name":"sibling","agent_type":"risk"}`)
	require.Equal(t, http.StatusCreated, status, reg)
	sibling := reg["api_key"].(string)
	siblingRef := e.ticket(sibling, "sibling's", "low")

	status, list := e.do("GET", "/v1/support/tickets", key(k), "")
	require.Equal(t, http.StatusOK, status, list)
	assert.EqualValues(t, 3, list["count"])
	assert.Equal(t, false, list["has_more"])
	assert.Nil(t, list["next_cursor"])
	tickets := list["tickets"].([]any)
	assert.Equal(t, refs[2], tickets[0].(map[string]any)["ticket_id"], "newest first")
	assert.Equal(t, "third", tickets[0].(map[string]any)["subject"])
	for _, tk := range tickets {
		assert.NotContains(t, tk, "description", "lists leave the description out")
	}

	status, page := e.do("GET", "/v1/support/tickets?limit=2", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 2, page["count"])
	assert.Equal(t, true, page["has_more"])
	cursor := page["next_cursor"].(string)
	status, page = e.do("GET", "/v1/support/tickets?limit=2&cursor="+url.QueryEscape(cursor), key(k), "")
	require.Equal(t, http.StatusOK, status, page)
	assert.EqualValues(t, 1, page["count"])
	assert.Equal(t, refs[0], page["tickets"].([]any)[0].(map[string]any)["ticket_id"])
	assert.Equal(t, false, page["has_more"])

	status, one := e.do("GET", "/v1/support/ticket/"+refs[1], key(k), "")
	require.Equal(t, http.StatusOK, status, one)
	assert.Equal(t, "Details of second\nline two", one["description"])
	assert.Equal(t, "high", one["priority"])

	status, theirs := e.do("GET", "/v1/support/ticket/"+siblingRef, key(k), "")
	assert.Equal(t, http.StatusNotFound, status)
	status, missing := e.do("GET", "/v1/support/ticket/SR-999999", key(k), "")
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, strings.Replace(theirs["detail"].(string), siblingRef, "SR-999999", 1), missing["detail"],
		"another agent's ticket answers exactly like a missing one")

	status, open := e.do("GET", "/v1/support/tickets?status=resolved", key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 0, open["count"])
}

func TestSupportAdminMovesTickets(t *testing.T) {
	e := newEnv(t)
	agentID, k := e.register("acme")
	_, other := e.register("globex")
	ref := e.ticket(k, "stuck", "high")
	e.ticket(other, "other", "low")

	status, list := e.do("GET", "/v1/admin/support/tickets", admin(), "")
	require.Equal(t, http.StatusOK, status, list)
	assert.EqualValues(t, 2, list["count"], "administrators see every agent's tickets")
	status, list = e.do("GET", "/v1/admin/support/tickets?agent_id="+agentID+"&status=open", admin(), "")
	require.Equal(t, http.StatusOK, status, list)
	assert.EqualValues(t, 1, list["count"])
	status, full := e.do("GET", "/v1/admin/support/tickets/"+ref, admin(), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "Details of stuck\nline two", full["description"])

	path := "/v1/admin/support/tickets/" + ref + "/status"
	steps := []struct {
		to     string
		status int
		want   string
	}{
		{"in_progress", 200, "in_progress"},
		{"resolved", 200, "resolved"},
		{"in_progress", 409, "status: ticket " + ref + " is resolved and cannot move to in_progress (allowed: open, closed)"},
		{"open", 200, "open"}, // reopen
		{"open", 200, "open"}, // the current status: no change
		{"closed", 200, "closed"},
		{"open", 409, "status: a closed ticket is final"},
		{"closed", 200, "closed"},
		{"done", 400, `status: must be one of "open", "in_progress", "resolved", "closed"`},
	}
	for _, s := range steps {
		status, m := e.do("PUT", path, admin(), `{"status":"`+s.to+`"}`)
		require.Equal(t, s.status, status, "%s: %v", s.to, m)
		if s.status == 200 {
			assert.Equal(t, s.want, m["status"])
		} else {
			assert.Contains(t, m["detail"], s.want)
		}
	}
	status, mine := e.do("GET", "/v1/support/ticket/"+ref, key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "closed", mine["status"], "the agent sees the administrator's change")
	assert.NotEqual(t, mine["created_at"], mine["updated_at"])

	for _, c := range []struct {
		method, path, body string
		headers            map[string]string
		status             int
	}{
		{"GET", "/v1/admin/support/tickets", "", nil, 401},
		{"GET", "/v1/admin/support/tickets", "", key(k), 401},
		{"PUT", path, `{"status":"open"}`, key(k), 401},
		{"PUT", "/v1/admin/support/tickets/SR-999999/status", `{"status":"open"}`, admin(), 404},
		{"PUT", "/v1/admin/support/tickets/42/status", `{"status":"open"}`, admin(), 404},
		{"GET", "/v1/admin/support/submissions?type=complaint", "", admin(), 400},
	} {
		status, _ := e.do(c.method, c.path, c.headers, c.body)
		assert.Equal(t, c.status, status, "%s %s", c.method, c.path)
	}
}

func TestSupportAdminDisabledWithoutKey(t *testing.T) {
	e := newEnvWithoutAdmin(t)
	status, m := e.do("GET", "/v1/admin/support/tickets", admin(), "")
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Contains(t, m["detail"], "disabled")
}

// TestSupportBadInput: every rejected support request is a 4xx naming the
// field and the rule, and writes nothing.
func TestSupportBadInput(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	ticket := func(subject, description, priority, category string) string {
		return fmt.Sprintf(`{"subject":%q,"description":%q,"priority":%q,"category":%q}`, subject, description, priority, category)
	}
	enterprise := func(email, requirements string) string {
		return `{"organization_name":"Acme","contact_email":"` + email + `","description":"d","requirements":` + requirements + `,"timeline":"Q3"}`
	}
	bug := `{"title":"t","description":"d","steps_to_reproduce":"s","expected_behavior":"e","actual_behavior":"a"`
	cases := []struct {
		path, body, want string
		status           int
	}{
		{"ticket", ticket("", "d", "low", "billing"), "subject: must not be empty", 400},
		{"ticket", ticket(strings.Repeat("s", 201), "d", "low", "billing"), "subject: must be at most 200 characters long, got 201", 400},
		{"ticket", ticket("s", "", "low", "billing"), "description: must not be empty", 400},
		{"ticket", ticket("s", strings.Repeat("d", 5001), "low", "billing"), "description: must be at most 5000 characters long, got 5001", 400},
		{"ticket", ticket("   ", "d", "low", "billing"), "subject: must not be blank", 400},
		{"ticket", ticket("s", "\n\t", "low", "billing"), "description: must not be blank", 400},
		{"ticket", ticket("a\tb", "d", "low", "billing"), "subject: must not contain control characters", 400},
		{"ticket", ticket("s", "d", "critical", "billing"), "priority: must be one of", 400},
		{"ticket", ticket("s", "d", "low", "sales"), "category: must be one of", 400},
		{"ticket", `{"subject":"s","description":"d","priority":"low"}`, "Missing required field: category", 400},
		{"ticket", `{"subject":"s","description":"d","priority":"low","category":"billing","status":"closed"}`, "Unknown field: status", 400},
		{"ticket", `{"subject":"s","description":"` + strings.Repeat("d", 70<<10) + `","priority":"low","category":"billing"}`, "too large", 413},
		{"feedback", `{"rating":0,"message":"m","category":"tools"}`, "rating: must be at least 1", 400},
		{"feedback", `{"rating":6,"message":"m","category":"tools"}`, "rating: must be at most 5", 400},
		{"feedback", `{"rating":4.5,"message":"m","category":"tools"}`, "rating", 400},
		{"feedback", `{"rating":4,"message":"","category":"tools"}`, "message: must not be empty", 400},
		{"feedback", `{"rating":4,"message":"` + strings.Repeat("m", 2001) + `","category":"tools"}`, "message: must be at most 2000", 400},
		{"feedback", `{"rating":4,"message":"m","category":"praise"}`, "category: must be one of", 400},
		{"suggestion", `{"title":"t","description":"d","use_case":"` + strings.Repeat("u", 2001) + `","priority_for_agent":"critical"}`, "use_case: must be at most 2000", 400},
		{"suggestion", `{"title":"t","description":"d","use_case":"u","priority_for_agent":"urgent"}`, "priority_for_agent: must be one of", 400},
		{"enterprise", enterprise("not-an-email", `["SSO"]`), "contact_email: must be an email address", 400},
		{"enterprise", enterprise("Bob <bob@acme.example>", `["SSO"]`), "contact_email: must be an email address", 400},
		{"enterprise", enterprise("bob@acme.example", `[]`), "requirements: at least 1 items are required", 400},
		{"enterprise", enterprise("bob@acme.example", `[""]`), "requirements[0]: must not be empty", 400},
		{"enterprise", enterprise("bob@acme.example", `[`+strings.Repeat(`"r",`, 50)+`"r"]`), "requirements: at most 50 items", 413},
		{"enterprise", `{"organization_name":"Acme","contact_email":"b@a.example","description":"d","requirements":["r"],"timeline":"Q3","budget_range":"` + strings.Repeat("b", 201) + `"}`, "budget_range: must be at most 200", 400},
		{"bug", bug + `}`, "", 201},
		{"bug", bug + `,"tool_name":""}`, "tool_name: must not be empty", 400},
		{"bug", `{"title":"t","description":"d","steps_to_reproduce":"s","expected_behavior":"e"}`, "Missing required field: actual_behavior", 400},
	}
	for _, c := range cases {
		if c.status == 201 {
			continue // the valid baseline is checked below, after the count
		}
		status, m := e.do("POST", "/v1/support/"+c.path, key(k), c.body)
		label := c.path + " " + c.body[:min(len(c.body), 90)]
		assert.Equal(t, c.status, status, label)
		assert.Contains(t, m["detail"], c.want, label)
	}
	for _, q := range []string{"?limit=0", "?limit=1001", "?limit=x", "?status=done", "?cursor=bm9wZQ", "?page=2", "?limit=1&limit=2"} {
		status, m := e.do("GET", "/v1/support/tickets"+q, key(k), "")
		assert.Equal(t, http.StatusBadRequest, status, q)
		name := strings.SplitN(strings.TrimPrefix(q, "?"), "=", 2)[0]
		assert.Contains(t, m["detail"], name, q)
	}
	// Any reference that names no ticket is 404 (the spec), malformed or not.
	for _, ref := range []string{"TKT-does-not-exist", "42", "SR-42", "SR-0000042", "sr-000042", "SR-000000", "SR-%20000001",
		"SR-99999999999999999999", "SR-999999"} {
		status, m := e.do("GET", "/v1/support/ticket/"+ref, key(k), "")
		assert.Equal(t, http.StatusNotFound, status, ref)
		assert.Contains(t, m["detail"], "ticket_id: no ticket", ref)
		assert.Equal(t, "not_found", m["code"], ref)
	}
	status, m := e.do("GET", "/v1/support/ticket/SR-000001?verbose=1", key(k), "")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, m["detail"], "Unknown query parameter")

	tickets, err := e.store.Tickets(t.Context(), support.TicketQuery{})
	require.NoError(t, err)
	assert.Empty(t, tickets, "no ticket written on any rejected request")
	subs, err := e.store.Submissions(t.Context(), support.SubmissionQuery{})
	require.NoError(t, err)
	assert.Empty(t, subs, "no submission written on any rejected request")
	status, m = e.do("POST", "/v1/support/bug", key(k), bug+`}`)
	assert.Equal(t, http.StatusCreated, status, m)
}

// TestSupportLongTextsInAnyScript: the limits count characters, and a
// 5,000-character description in 4-byte UTF-8 fits the body limits.
func TestSupportLongTextsInAnyScript(t *testing.T) {
	e := newEnv(t)
	_, k := e.register("acme")
	long := strings.Repeat("😀", 5000)
	status, m := e.do("POST", "/v1/support/ticket", key(k), `{"subject":"`+strings.Repeat("é", 200)+`","description":"`+long+`","priority":"low","category":"other"}`)
	require.Equal(t, http.StatusCreated, status, m["detail"])
	status, got := e.do("GET", "/v1/support/ticket/"+m["ticket_id"].(string), key(k), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, long, got["description"])
}

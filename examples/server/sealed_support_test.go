package main

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// supportSteps file one of everything the support desk takes, with a
// secret in every free-text field, and read each back through the API so
// the scenario proves the values were stored (and open again).
func supportSteps() []scenarioStep {
	return []scenarioStep{
		{name: "support ticket", run: func(t *testing.T, s *scenario) {
			_, key := s.agent()
			subject, description := s.secret("ticket subject"), s.secret("ticket description")
			status, m := s.call("POST", "/v1/support/ticket", key, `{"subject":"`+subject+`","description":"`+description+`",
				"priority":"high","category":"billing"}`)
			require.Equal(t, http.StatusCreated, status, m)
			ref := m["ticket_id"].(string)
			status, m = s.admin("PUT", "/v1/admin/support/tickets/"+ref+"/status", `{"status":"in_progress"}`)
			require.Equal(t, http.StatusOK, status, m)
			status, m = s.call("GET", "/v1/support/ticket/"+ref, key, "")
			require.Equal(t, http.StatusOK, status, m)
			assert.Equal(t, description, m["description"])
			assert.Equal(t, subject, m["subject"])
		}},
		{name: "support feedback, suggestion, enterprise inquiry and bug report", run: func(t *testing.T, s *scenario) {
			agentID, key := s.agent()
			bodies := map[string]string{
				"feedback": `{"rating":4,"message":"` + s.secret("feedback message") + `","category":"tools"}`,
				"suggestion": `{"title":"` + s.secret("suggestion title") + `","description":"` + s.secret("suggestion description") +
					`","use_case":"` + s.secret("suggestion use case") + `","priority_for_agent":"important"}`,
				"enterprise": `{"organization_name":"` + s.secret("organization") + `","contact_email":"` + s.secretEmail("contact") +
					`","description":"` + s.secret("inquiry description") + `","requirements":["` + s.secret("requirement") +
					`"],"timeline":"` + s.secret("timeline") + `","budget_range":"` + s.secret("budget") + `"}`,
				"bug": `{"title":"` + s.secret("bug title") + `","description":"` + s.secret("bug description") +
					`","steps_to_reproduce":"` + s.secret("bug steps") + `","expected_behavior":"` + s.secret("bug expected") +
					`","actual_behavior":"` + s.secret("bug actual") + `","tool_name":"` + s.secret("bug tool") +
					`","error_message":"` + s.secret("bug error") + `"}`,
			}
			for _, kind := range []string{"feedback", "suggestion", "enterprise", "bug"} {
				status, m := s.call("POST", "/v1/support/"+kind, key, bodies[kind])
				require.Equal(t, http.StatusCreated, status, "%s: %v", kind, m)
			}
			status, m := s.admin("GET", "/v1/admin/support/submissions?agent_id="+agentID, "")
			require.Equal(t, http.StatusOK, status, m)
			assert.EqualValues(t, 4, m["count"], "every submission stored and opened")
		}},
	}
}

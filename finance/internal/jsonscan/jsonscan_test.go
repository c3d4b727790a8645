package jsonscan

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSkipSpace(t *testing.T) {
	cases := []struct {
		in       string
		from, at int
	}{
		{"", 0, 0},
		{"  \t\r\n x", 0, 6},
		{"x ", 0, 0},
		{"x  ", 1, 3},
		{"a b", 1, 2},
	}
	for _, c := range cases {
		assert.Equal(t, c.at, SkipSpace([]byte(c.in), c.from), "%q from %d", c.in, c.from)
	}
}

func TestStringEnd(t *testing.T) {
	cases := []struct {
		in   string
		from int
		end  int
		ok   bool
	}{
		{`"abc",`, 0, 5, true},
		{`x"a"`, 1, 4, true},
		{`"a\"b"`, 0, 6, true},
		{`"a\\"b`, 0, 5, true},
		{`""`, 0, 2, true},
		{`"abc`, 0, 0, false},
		{`"a\"`, 0, 0, false},
		{`abc`, 0, 0, false},
		{`"a"`, 3, 0, false},
	}
	for _, c := range cases {
		end, ok := StringEnd([]byte(c.in), c.from)
		assert.Equal(t, c.ok, ok, "%q", c.in)
		assert.Equal(t, c.end, end, "%q", c.in)
	}
}

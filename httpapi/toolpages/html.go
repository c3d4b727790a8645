package toolpages

import (
	"bytes"
	"fmt"
	"html"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
)

// markdown renders the pages' GitHub-flavoured markdown (tables) with
// heading ids as GitHub makes them, so the pages' #anchors work served as
// they do in the repository. Raw HTML in a page (the generated note) is
// left out.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithAutoHeadingID()))

// pageStyle is the served pages' only style: readable text and tables, no
// asset from elsewhere (the docs Content-Security-Policy allows inline
// styles and nothing from another origin).
const pageStyle = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}` +
	`table{border-collapse:collapse;margin:1rem 0;display:block;overflow-x:auto}th,td{border:1px solid #d0d7de;padding:.3rem .6rem;vertical-align:top}` +
	`code,pre{font:14px ui-monospace,monospace;background:#f6f8fa}pre{padding:1rem;overflow-x:auto}a{color:#0969da}`

// HTML renders a page as a standalone HTML document titled title.
func HTML(title string, page []byte) ([]byte, error) {
	var body bytes.Buffer
	if err := markdown.Convert(page, &body); err != nil {
		return nil, fmt.Errorf("toolpages: %w", err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"+
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s · Agent Finance Toolkit</title>\n"+
		"<style>%s</style>\n</head>\n<body>\n<main>\n", html.EscapeString(title), pageStyle)
	b.Write(body.Bytes())
	b.WriteString("</main>\n</body>\n</html>\n")
	return b.Bytes(), nil
}

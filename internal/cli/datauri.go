package cli

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/passgp-fast/passgp-fast/data"
)

// dataURI is a data file argument in XGBoost's data URI convention: a
// path, optionally followed by '?' and options key=value joined by '&':
// format (auto, libsvm, csv, idx or binary; default auto: detected from
// the content and name) and label_column (the CSV label column, 0-based,
// negative from the end; default 0). A path without '?' is the file
// itself with the defaults. It is a flag.Value.
type dataURI struct {
	path, format string
	labelCol     int
}

// dataURIHelp describes the options of a data URI for --help.
const dataURIHelp = "; FILE?format=F&label_column=N sets its format (auto, libsvm, csv, idx or binary) and CSV label column (0-based, negative from the end)"

func (u *dataURI) String() string {
	if u == nil || u.path == "" {
		return ""
	}
	q := url.Values{}
	if u.format != "" && u.format != "auto" {
		q.Set("format", u.format)
	}
	if u.labelCol != 0 {
		q.Set("label_column", strconv.Itoa(u.labelCol))
	}
	if len(q) == 0 {
		return u.path
	}
	return u.path + "?" + q.Encode()
}

// Set parses s: an unknown key, a repeated one or a bad value is an error.
func (u *dataURI) Set(s string) error {
	path, query, hasQuery := strings.Cut(s, "?")
	v := dataURI{path: path, format: "auto"}
	if hasQuery {
		q, err := url.ParseQuery(query)
		if err != nil {
			return fmt.Errorf("bad options %q: %v", query, err)
		}
		for key, vals := range q {
			if len(vals) != 1 {
				return fmt.Errorf("option %s given %d times", key, len(vals))
			}
			if err := v.setOption(key, vals[0]); err != nil {
				return err
			}
		}
	}
	if v.path == "" {
		return fmt.Errorf("no file name")
	}
	*u = v
	return nil
}

// setOption sets one option of a data URI.
func (u *dataURI) setOption(key, val string) error {
	switch key {
	case "format":
		if _, err := data.ParseFormat(val); err != nil || val == "" {
			return fmt.Errorf("format: want auto, libsvm, csv, idx or binary, got %q", val)
		}
		u.format = val
	case "label_column":
		c, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("label_column: want an integer, got %q", val)
		}
		u.labelCol = c
	default:
		return fmt.Errorf("unknown option %q (want format or label_column)", key)
	}
	return nil
}

// dataFormat is the URI's format option.
func (u *dataURI) dataFormat() (data.Format, error) {
	f, err := data.ParseFormat(u.format)
	if err != nil {
		return f, errUsage("--data %s: %v", u.path, err)
	}
	return f, nil
}

// shellWord quotes s for a POSIX shell where it holds more than letters,
// digits and the characters of plain paths (a data URI's '?' and '&').
func shellWord(s string) string {
	plain := strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+,:=@%", r))
	}) < 0
	if plain && s != "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

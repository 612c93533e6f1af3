package passgpfast

import "fmt"

// ConfigError is an invalid training configuration or option. Its
// messages name the settings by the train command's flags (--kernel,
// --p-inc, ...), which are Config's fields.
type ConfigError struct{ Msg string }

func (e *ConfigError) Error() string { return e.Msg }

func configErr(format string, args ...any) error {
	return &ConfigError{fmt.Sprintf(format, args...)}
}

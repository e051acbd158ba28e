#pragma once

#include "core/result.h"

#include <string>

namespace topodeck {

// The whole file, as bytes. Errors: "cannot read PATH: <reason>".
Result<std::string> readTextFile(const std::string& path);
// A token (or namespace) file's content without surrounding whitespace and newlines.
Result<std::string> readTokenFile(const std::string& path);

} // namespace topodeck

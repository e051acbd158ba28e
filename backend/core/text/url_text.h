#pragma once

#include <string>
#include <string_view>

namespace topodeck {

// The URL with userinfo removed and the values of `token` / `access_token` query parameters
// replaced, fit for messages and logs.
std::string redactUrl(std::string_view url);
// The user[:password] part of a URL, or empty: what must never reach a message.
std::string_view urlUserinfo(std::string_view url);

} // namespace topodeck

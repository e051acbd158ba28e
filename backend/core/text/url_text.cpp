#include "core/text/url_text.h"

#include "core/text/text_format.h"

#include <algorithm>
#include <utility>

namespace topodeck {
namespace {

// Where user[:password]@ sits in scheme://user:password@host/..., @ included; {0, 0} if absent.
std::pair<std::size_t, std::size_t> userinfoSpan(std::string_view url) {
    const auto schemeEnd = url.find("://");
    const auto start = schemeEnd == std::string_view::npos ? 0 : schemeEnd + 3;
    const auto end = std::min(url.find_first_of("/?#", start), url.size());
    const auto at = url.rfind('@', end);
    if (at == std::string_view::npos || at < start) return {0, 0};
    return {start, at + 1 - start};
}

} // namespace

std::string_view urlUserinfo(std::string_view url) {
    const auto [start, length] = userinfoSpan(url);
    return length == 0 ? std::string_view{} : url.substr(start, length - 1);
}

std::string redactUrl(std::string_view url) {
    std::string result(url);
    const auto [userStart, userLength] = userinfoSpan(url);
    result.erase(userStart, userLength);

    const auto queryStart = result.find('?');
    if (queryStart == std::string::npos) return result;
    const auto queryEnd = std::min(result.find('#', queryStart), result.size());
    std::string query;
    std::string_view rest = std::string_view(result).substr(queryStart + 1, queryEnd - queryStart - 1);
    while (true) {
        const auto amp = rest.find('&');
        const std::string_view param = rest.substr(0, amp);
        const auto eq = param.find('=');
        const std::string_view key = param.substr(0, eq);
        if (eq != std::string_view::npos && (equalsIgnoreCase(key, "token") || equalsIgnoreCase(key, "access_token")))
            query.append(key).append("=REDACTED");
        else
            query.append(param);
        if (amp == std::string_view::npos) break;
        query += '&';
        rest.remove_prefix(amp + 1);
    }
    return result.substr(0, queryStart + 1) + query + result.substr(queryEnd);
}

} // namespace topodeck

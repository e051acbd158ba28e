#include "net/slurm_rest_client.h"

#include "core/text/base64.h"
#include "core/text/text_file.h"
#include "net/file_stamp.h"

#include <simdjson.h>

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace topodeck {

namespace {

using State = ResourceHealth::State;

constexpr std::string_view kTokenHelp = "make one with `scontrol token` and pass it with --slurm-token-file or SLURM_JWT";

// "v0.0.38" -> 38; 0 when it is not such a name.
int versionNumber(std::string_view version) {
    if (!version.starts_with("v0.0.")) return 0;
    int number = 0;
    for (char c : version.substr(5)) {
        if (c < '0' || c > '9') return 0;
        number = number * 10 + (c - '0');
    }
    return number;
}

std::string currentUserName() {
    if (const passwd* entry = ::getpwuid(::getuid()); entry && entry->pw_name) return entry->pw_name;
    if (const char* user = std::getenv("USER")) return user;
    return {};
}

// The "errors" of a slurmrestd reply, one line: "slurm_load_jobs: Failed while looking for jobs
// (Unspecified error)". Empty when the body has none or is not JSON.
std::string errorsOf(const std::string& body) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(body).get(root) != simdjson::SUCCESS) return {};
    simdjson::dom::array errors;
    if (root["errors"].get_array().get(errors) != simdjson::SUCCESS) return {};
    std::string text;
    for (simdjson::dom::element error : errors) {
        const auto field = [&error](const char* key) {
            std::string_view value;
            if (error[key].get_string().get(value) != simdjson::SUCCESS) value = {};
            return value;
        };
        const std::string_view description = field("description"), name = field("error"), source = field("source");
        std::string line = source.empty() ? std::string() : std::string(source) + ": ";
        line += description.empty() ? std::string(name) : std::string(description);
        if (!description.empty() && !name.empty()) line += " (" + std::string(name) + ")";
        if (!line.empty()) text += (text.empty() ? "" : "; ") + line;
    }
    return text;
}

std::string snippet(const std::string& body) {
    std::string text = body.substr(0, 200);
    std::replace(text.begin(), text.end(), '\n', ' ');
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}


} // namespace

const std::vector<std::string>& supportedSlurmApiVersions() {
    static const std::vector<std::string> versions = {"v0.0.36", "v0.0.37", "v0.0.38", "v0.0.39", "v0.0.40",
                                                      "v0.0.41", "v0.0.42", "v0.0.43", "v0.0.44"};
    return versions;
}

Result<std::string> pickSlurmApiVersion(std::string& openapiJson) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (auto error = parser.parse(openapiJson).get(root)) return Error{std::string("not JSON: ") + simdjson::error_message(error)};
    simdjson::dom::object paths;
    if (root["paths"].get_object().get(paths) != simdjson::SUCCESS) return Error{"no \"paths\" in the OpenAPI document"};
    int best = 0;
    std::vector<std::string> offered;
    for (auto [path, value] : paths) {
        (void)value;
        constexpr std::string_view prefix = "/slurm/";
        if (!path.starts_with(prefix)) continue;
        const std::string_view rest = path.substr(prefix.size());
        const std::size_t slash = rest.find('/');
        if (slash == std::string_view::npos) continue;
        const std::string_view version = rest.substr(0, slash);
        std::string_view resource = rest.substr(slash + 1);
        if (resource.ends_with('/')) resource.remove_suffix(1);
        if (resource != "nodes") continue;
        offered.emplace_back(version);
        const auto& supported = supportedSlurmApiVersions();
        if (std::find(supported.begin(), supported.end(), version) != supported.end())
            best = std::max(best, versionNumber(version));
    }
    if (best > 0) return "v0.0." + std::to_string(best);
    std::sort(offered.begin(), offered.end());
    std::string list;
    for (const std::string& version : offered) list += (list.empty() ? "" : ", ") + version;
    return Error{offered.empty() ? std::string("the server lists no /slurm/<version>/nodes endpoint")
                                 : "the server offers " + list + ", none of which topodeck reads (it reads v0.0.36 to v0.0.44)"};
}

Result<SlurmJwtClaims> readSlurmJwt(std::string_view token) {
    const std::size_t first = token.find('.');
    const std::size_t second = first == std::string_view::npos ? first : token.find('.', first + 1);
    if (second == std::string_view::npos) return Error{"not a JWT (it should be three base64url parts joined by dots)"};
    std::string payload(token.substr(first + 1, second - first - 1));
    std::replace(payload.begin(), payload.end(), '-', '+');
    std::replace(payload.begin(), payload.end(), '_', '/');
    while (payload.size() % 4 != 0) payload += '=';
    Result<std::string> json = decodeBase64(payload);
    if (!json) return Error{"not a JWT: its payload is not base64url"};
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(*json).get(root) != simdjson::SUCCESS || !root.is_object())
        return Error{"not a JWT: its payload is not a JSON object"};
    SlurmJwtClaims claims;
    std::string_view user;
    if (root["sun"].get_string().get(user) == simdjson::SUCCESS) claims.user = user;
    std::int64_t expires = 0;
    if (root["exp"].get_int64().get(expires) == simdjson::SUCCESS) claims.expires = expires;
    return claims;
}

SlurmRestClient::SlurmRestClient(const SlurmTarget& target, std::chrono::milliseconds timeout, ReadLimits limits)
    : m_target(target), m_timeout(timeout), m_limits(limits), m_http([&] {
          HttpClientOptions options;
          options.tls = target.tls;
          if (target.url.starts_with("unix:")) {
              std::string_view path = std::string_view(target.url).substr(5);
              while (path.starts_with("//")) path.remove_prefix(1); // unix:///run/x.sock
              options.unixSocket = std::string(path);
          }
          return options;
      }()) {
    m_baseUrl = target.url.starts_with("unix:") ? std::string("http://localhost") : target.url;
    while (m_baseUrl.ends_with('/')) m_baseUrl.pop_back();
    m_version = target.apiVersion;
}

std::string SlurmRestClient::describe() const {
    return "slurmrestd " + redactUrl(m_target.url);
}

std::optional<SlurmFetch> SlurmRestClient::refreshCredentials() {
    const bool local = m_target.url.starts_with("unix:");
    if (!m_target.tokenFile.empty()) {
        const std::int64_t stamp = fileStamp(m_target.tokenFile);
        if (stamp != m_tokenFileStamp || m_token.empty()) {
            Result<std::string> token = readTokenFile(m_target.tokenFile);
            if (!token) return SlurmFetch::failed(State::Unauthorized, "cannot read the token: " + token.error().message);
            m_token = std::move(*token);
            m_tokenFileStamp = stamp;
            m_user.clear();
        }
    } else if (m_token.empty()) {
        if (const char* env = std::getenv("SLURM_JWT"); env && *env) m_token = env;
    }
    if (m_token.empty()) {
        if (local) return std::nullopt; // rest_auth/local knows the user from the socket
        return SlurmFetch::failed(State::Unauthorized, "no token for slurmrestd: " + std::string(kTokenHelp));
    }
    if (m_user.empty()) {
        Result<SlurmJwtClaims> claims = readSlurmJwt(m_token);
        if (!claims) return SlurmFetch::failed(State::Unauthorized, "the token is " + claims.error().message);
        m_tokenExpires = claims->expires;
        m_user = !m_target.userName.empty() ? m_target.userName : !claims->user.empty() ? claims->user : currentUserName();
    }
    const auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
    if (m_tokenExpires && *m_tokenExpires <= now.count())
        return SlurmFetch::failed(State::Unauthorized, "the token expired at " +
                                                           formatUtc(std::chrono::system_clock::time_point(
                                                               std::chrono::seconds(*m_tokenExpires))) +
                                                           ": " + std::string(kTokenHelp));
    return std::nullopt;
}

SlurmFetch SlurmRestClient::send(const std::string& path) {
    if (std::optional<SlurmFetch> problem = refreshCredentials()) return std::move(*problem);
    HttpRequest request;
    request.url = m_baseUrl + path;
    request.timeout = m_timeout;
    request.connectTimeout = std::min(m_timeout, std::chrono::milliseconds(10000));
    request.maxBody = m_limits.slurmReply;
    request.limitVariable = kMaxSlurmReplyVariable;
    request.lowSpeedLimit = m_limits.lowSpeedLimit;
    request.lowSpeedTime = m_limits.lowSpeedTime;
    if (!m_token.empty()) {
        request.headers.emplace_back("X-SLURM-USER-NAME", m_user);
        request.headers.emplace_back("X-SLURM-USER-TOKEN", m_token);
    }
    Result<HttpResponse> response = m_http.send(request);
    // A reply too large to keep is an answer, not a server out of reach.
    if (!response && m_http.refusedByLimit()) return SlurmFetch::failed(State::Failing, describe() + ": " + response.error().message);
    if (!response) return SlurmFetch::failed(State::Unreachable, "cannot reach " + describe() + ": " + response.error().message);
    SlurmFetch fetch;
    const long status = response->status;
    if (status == 200) {
        fetch.outcome = SlurmFetch::Outcome::Fresh;
        fetch.body = std::move(response->body);
        return fetch;
    }
    if (status == 304) {
        fetch.outcome = SlurmFetch::Outcome::NotModified;
        return fetch;
    }
    const std::string errors = errorsOf(response->body);
    const std::string said = errors.empty() ? snippet(response->body) : errors;
    const std::string http = "HTTP " + std::to_string(status) + (said.empty() ? "" : ": " + said);
    if (status == 401) return SlurmFetch::failed(State::Unauthorized, "slurmrestd refused the credentials (" + http + "); " + std::string(kTokenHelp));
    if (status == 403) return SlurmFetch::failed(State::Forbidden, "no permission (" + http + ")");
    if (status == 404)
        return SlurmFetch::failed(State::Failing, "slurmrestd does not serve " + path + " (" + http +
                                                      "): is its openapi/" + m_version + " plugin loaded?");
    // slurmrestd 22.05 answers 500 "Unspecified error" both when slurmctld rejects the token and
    // when it cannot reach slurmctld; the source tells them apart by whether it ever synced.
    return SlurmFetch::failed(State::Failing, "slurmrestd could not answer " + path + " (" + http + ")");
}

SlurmFetch SlurmRestClient::discoverVersion() {
    if (!m_version.empty()) {
        SlurmFetch fetch;
        fetch.outcome = SlurmFetch::Outcome::Fresh;
        return fetch;
    }
    // 22.05 serves the document at /openapi; 23.02+ at /openapi/v3 as well.
    SlurmFetch fetch = send("/openapi/v3");
    if (fetch.outcome == SlurmFetch::Outcome::Failed && fetch.message.find("HTTP 404") != std::string::npos)
        fetch = send("/openapi");
    if (fetch.outcome != SlurmFetch::Outcome::Fresh) return fetch;
    Result<std::string> version = pickSlurmApiVersion(fetch.body);
    if (!version) return SlurmFetch::failed(State::Failing, describe() + ": " + version.error().message);
    m_version = std::move(*version);
    fetch.body.clear();
    return fetch;
}

SlurmFetch SlurmRestClient::get(std::string_view resource, std::int64_t updateTime) {
    std::string path = "/slurm/" + m_version + "/" + std::string(resource);
    // Slurm 23.02+ routes "/nodes/" and "/nodes" alike; 22.05 only the latter.
    if (updateTime > 0) path += "?update_time=" + std::to_string(updateTime);
    return send(path);
}

} // namespace topodeck

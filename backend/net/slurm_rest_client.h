#pragma once

#include "core/live/live_target.h"
#include "core/result.h"
#include "net/http_client.h"
#include "net/slurm_fetch.h"
#include "net/slurm_source.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// The REST API versions whose node and job replies we read, oldest first.
const std::vector<std::string>& supportedSlurmApiVersions();
// The newest supported version among the paths of an OpenAPI document (/openapi of 22.05,
// /openapi/v3 of 23.02+): "/slurm/v0.0.40/nodes/" and "/slurm/v0.0.38/nodes" both count.
// An error lists what the server offers when none is supported.
Result<std::string> pickSlurmApiVersion(std::string& openapiJson);

// What a slurmrestd JWT says of itself (its payload is not verified here, only read).
struct SlurmJwtClaims {
    std::string user; // "sun"
    std::optional<std::int64_t> expires; // "exp", epoch seconds
};
// Errors say what is wrong with the token's form ("not a JWT: ...").
Result<SlurmJwtClaims> readSlurmJwt(std::string_view token);

// slurmrestd over HTTP(S) or a unix socket, with X-SLURM-USER-NAME / X-SLURM-USER-TOKEN. Not
// thread-safe but for cancel().
class SlurmRestClient {
public:
    // A reply larger than limits.slurmReply is refused (Failing, with the limit and how to raise
    // it), as is one that stalls or trickles once begun.
    SlurmRestClient(const SlurmTarget& target, std::chrono::milliseconds timeout,
                    ReadLimits limits = ReadLimits::fromEnvironment());

    // The API version to use: the target's, or the newest one /openapi lists that we read.
    SlurmFetch discoverVersion();
    const std::string& apiVersion() const { return m_version; }
    // GET /slurm/<version>/<resource>, with update_time when given (a 304 is NotModified).
    SlurmFetch get(std::string_view resource, std::int64_t updateTime);
    void cancel() { m_http.cancel(); }

    std::string describe() const; // "slurmrestd http://host:port" / "slurmrestd unix:/path"

private:
    SlurmFetch send(const std::string& path);
    // The token and user name for the next request, read again when the token file changed.
    std::optional<SlurmFetch> refreshCredentials();

    SlurmTarget m_target;
    std::chrono::milliseconds m_timeout;
    ReadLimits m_limits;
    std::string m_baseUrl; // scheme://host:port[/prefix], no trailing '/'
    HttpClient m_http;
    std::string m_version;
    std::string m_token;
    std::string m_user;
    std::optional<std::int64_t> m_tokenExpires;
    std::int64_t m_tokenFileStamp = -1;
};

} // namespace topodeck

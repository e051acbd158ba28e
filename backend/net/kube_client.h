#pragma once

#include "core/formats/kube_response_reader.h"
#include "core/result.h"
#include "net/http_client.h"
#include "net/kube_credentials.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace topodeck {

// Requests to one API server as one user, on one HttpClient (one thread; cancel() from any).
// Every request carries the connection's credentials; a 401 fetches fresh ones (a new exec plugin
// token, a re-read token file) and tries once more, as client-go does.
class KubeClient {
public:
    // Responses are read within `limits`: a list page or discovery document up to kubeResponse,
    // a watch event up to kubeEvent, each refused beyond it (refusedByLimit()).
    explicit KubeClient(std::shared_ptr<KubeCredentials> credentials, ReadLimits limits = {});

    // GET server + pathAndQuery. Non-2xx answers are values (see describeKubeStatus).
    Result<HttpResponse> get(std::string_view pathAndQuery, std::chrono::milliseconds timeout);
    // Any other request, with a body of `contentType` (e.g. PATCH with application/json-patch+json).
    Result<HttpResponse> send(std::string_view method, std::string_view pathAndQuery, std::string_view contentType,
                              std::string body, std::chrono::milliseconds timeout);
    // A watch: streams the response, handing each complete line to onLine (false stops); onHeaders
    // hears the status as soon as the server answers. Returns the HTTP status; for a non-2xx one
    // the body is in errorBody(). An event longer than the limit, or one that stalls or trickles
    // once begun, ends the watch with an error; silence between events is the server's to end.
    Result<long> watch(std::string_view pathAndQuery, std::chrono::milliseconds timeout,
                       const std::function<bool(std::string& line)>& onLine,
                       const std::function<void(long status)>& onHeaders = {});
    const std::string& errorBody() const { return m_http.errorBody(); }
    // Whether the last get() or watch() failed because the answer was larger than its limit.
    bool refusedByLimit() const { return m_http.refusedByLimit(); }

    void cancel() { m_http.cancel(); }
    void resetCancel() { m_http.resetCancel(); }

    const KubeConnection& connection() const { return m_credentials->connection(); }

private:
    Result<HttpRequest> request(std::string_view pathAndQuery, std::chrono::milliseconds timeout, KubeAuth& auth);

    std::shared_ptr<KubeCredentials> m_credentials;
    ReadLimits m_limits;
    HttpClient m_http;
    std::string m_execCertificate; // the exec plugin's client certificate m_http is set up with
};

// "403 Forbidden: pods is forbidden: User ..." from an error response, using the Status object's
// message when there is one.
std::string describeKubeStatus(long status, std::string_view body);

// The User-Agent topodeck sends.
std::string kubeUserAgent();

} // namespace topodeck

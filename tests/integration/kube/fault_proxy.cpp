#include "fault_proxy.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <functional>

namespace {

using Abort = std::function<bool()>;

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

// The value of a header in an HTTP head, lower-cased, or empty.
std::string headerValue(const std::string& head, std::string_view name) {
    const std::string lowered = lower(head);
    const std::string key = "\r\n" + lower(std::string(name)) + ':';
    const auto at = lowered.find(key);
    if (at == std::string::npos) return {};
    const auto start = at + key.size();
    const auto end = lowered.find("\r\n", start);
    std::string value = lowered.substr(start, end - start);
    value.erase(0, value.find_first_not_of(' '));
    while (!value.empty() && value.back() == ' ') value.pop_back();
    return value;
}

std::string_view reason(int status) {
    switch (status) {
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 410:
        return "Gone";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Injected";
    }
}

std::string chunk(std::string_view data) {
    char size[16];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    return size + std::string(data) + "\r\n";
}

// `json` with `bytes` of padding in a string field of its first object.
std::string inflated(const std::string& json, std::size_t bytes) {
    const std::size_t brace = json.find('{');
    if (brace == std::string::npos) return json + std::string(bytes, ' ');
    std::string out = json.substr(0, brace + 1);
    out += "\"topodeckTestPadding\":\"" + std::string(bytes, 'p') + "\",";
    out += json.substr(brace + 1);
    return out;
}

// A response head for a body sent chunked, whatever framing the server used.
std::string chunkedHead(const std::string& head) {
    std::string out;
    std::size_t start = 0;
    while (start < head.size()) {
        const std::size_t end = head.find("\r\n", start);
        const std::string line = head.substr(start, end - start);
        start = end == std::string::npos ? head.size() : end + 2;
        if (line.empty()) continue;
        const std::string name = lower(line.substr(0, line.find(':')));
        if (name == "content-length" || name == "transfer-encoding") continue;
        out += line + "\r\n";
    }
    return out + "Transfer-Encoding: chunked\r\n\r\n";
}

std::string chunkSize(std::size_t size) {
    char text[20];
    std::snprintf(text, sizeof text, "%zx\r\n", size);
    return text;
}

// One side of a proxied connection: a TLS session over a blocking socket, read through a buffer.
class TlsStream {
public:
    TlsStream(SSL* ssl, int fd) : m_ssl(ssl), m_fd(fd) {}
    ~TlsStream() {
        if (m_ssl) SSL_free(m_ssl);
        if (m_fd >= 0) ::close(m_fd);
    }
    TlsStream(const TlsStream&) = delete;
    TlsStream& operator=(const TlsStream&) = delete;

    int fd() const { return m_fd; }
    std::string& buffer() { return m_buffer; }

    // Reads until the buffer holds `needle`; its end offset in `end`. False on EOF or abort.
    bool readUntil(std::string_view needle, std::size_t& end, const Abort& abort) {
        while (true) {
            if (const auto at = m_buffer.find(needle); at != std::string::npos) {
                end = at + needle.size();
                return true;
            }
            if (!readMore(abort)) return false;
        }
    }

    bool readAtLeast(std::size_t size, const Abort& abort) {
        while (m_buffer.size() < size)
            if (!readMore(abort)) return false;
        return true;
    }

    std::string take(std::size_t size) {
        std::string out = m_buffer.substr(0, size);
        m_buffer.erase(0, size);
        return out;
    }

    bool write(std::string_view data) {
        while (!data.empty()) {
            const int written = SSL_write(m_ssl, data.data(), static_cast<int>(std::min<std::size_t>(data.size(), 1 << 20)));
            if (written <= 0) return false;
            data.remove_prefix(static_cast<std::size_t>(written));
        }
        return true;
    }

    // The peer went away (read side shut, or an error), without consuming anything.
    bool peerClosed() const {
        pollfd entry{m_fd, POLLRDHUP, 0};
        return ::poll(&entry, 1, 0) > 0 && (entry.revents & (POLLRDHUP | POLLHUP | POLLERR));
    }

private:
    bool readMore(const Abort& abort) {
        while (true) {
            if (SSL_pending(m_ssl) == 0) {
                pollfd entry{m_fd, POLLIN, 0};
                const int ready = ::poll(&entry, 1, 50);
                if (abort && abort()) return false;
                if (ready == 0) continue;
            }
            char data[16384];
            const int got = SSL_read(m_ssl, data, sizeof data);
            if (got > 0) {
                m_buffer.append(data, static_cast<std::size_t>(got));
                return true;
            }
            const int error = SSL_get_error(m_ssl, got);
            if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) continue;
            return false;
        }
    }

    SSL* m_ssl;
    int m_fd;
    std::string m_buffer;
};

int selectHttp11(SSL*, const unsigned char** out, unsigned char* outLength, const unsigned char* in,
                 unsigned int inLength, void*) {
    // Offer nothing but HTTP/1.1, whatever the client would prefer.
    for (unsigned int i = 0; i < inLength; i += 1u + in[i]) {
        if (in[i] == 8 && std::memcmp(in + i + 1, "http/1.1", 8) == 0) {
            *out = in + i + 1;
            *outLength = 8;
            return SSL_TLSEXT_ERR_OK;
        }
    }
    return SSL_TLSEXT_ERR_NOACK;
}

int connectLoopback(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

// One chunk of a chunked body read whole from the stream: as it came ("size\r\ndata\r\n"),
// where its data starts and how long it is (0: the last chunk). False when the stream ended.
struct Chunk {
    std::string raw;
    std::size_t dataStart = 0;
    std::size_t size = 0;
    std::string data() const { return raw.substr(dataStart, size); }
};
bool readChunk(TlsStream& stream, const Abort& abort, Chunk& out) {
    if (!stream.readUntil("\r\n", out.dataStart, abort)) return false;
    out.size = std::stoul(stream.buffer().substr(0, out.dataStart - 2), nullptr, 16);
    if (!stream.readAtLeast(out.dataStart + out.size + 2, abort)) return false;
    out.raw = stream.take(out.dataStart + out.size + 2);
    return true;
}

} // namespace

FaultProxy::FaultProxy(Options options) : m_options(std::move(options)) {
    std::signal(SIGPIPE, SIG_IGN); // a client that goes away mid-write must not end the test

    SSL_CTX* server = SSL_CTX_new(TLS_server_method());
    SSL_CTX* client = SSL_CTX_new(TLS_client_method());
    m_serverContext = server;
    m_clientContext = client;
    if (SSL_CTX_use_certificate_chain_file(server, m_options.certificateFile.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(server, m_options.keyFile.c_str(), SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_load_verify_locations(client, m_options.upstreamCa.c_str(), nullptr) != 1)
        return;
    SSL_CTX_set_alpn_select_cb(server, selectHttp11, nullptr);
    SSL_CTX_set_verify(client, SSL_VERIFY_PEER, nullptr);
    X509_VERIFY_PARAM_set1_ip_asc(SSL_CTX_get0_param(client), "127.0.0.1");
    static const unsigned char http11[] = "\x08http/1.1";
    SSL_CTX_set_alpn_protos(client, http11, sizeof http11 - 1);

    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(listener, reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(listener, 64) != 0 ||
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        ::close(listener);
        return;
    }
    m_listener = listener;
    m_port = ntohs(address.sin_port);
    m_acceptThread = std::thread([this] { acceptLoop(); });
}

FaultProxy::~FaultProxy() {
    m_stopping = true;
    resume();
    if (m_acceptThread.joinable()) m_acceptThread.join();
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(m_mutex);
        threads.swap(m_connectionThreads);
    }
    for (std::thread& thread : threads) thread.join();
    if (m_listener >= 0) ::close(m_listener);
    SSL_CTX_free(static_cast<SSL_CTX*>(m_serverContext));
    SSL_CTX_free(static_cast<SSL_CTX*>(m_clientContext));
}

void FaultProxy::failNext(std::string match, int status, int count) {
    std::lock_guard lock(m_mutex);
    m_rules.push_back({Rule::Kind::Fail, std::move(match), status, {}, count});
}

void FaultProxy::expireNextWatch(std::string match) {
    std::lock_guard lock(m_mutex);
    m_rules.push_back({Rule::Kind::Expire, std::move(match), 410, {}, 1});
}

void FaultProxy::delayNext(std::string match, std::chrono::milliseconds delay, int count) {
    std::lock_guard lock(m_mutex);
    m_rules.push_back({Rule::Kind::Delay, std::move(match), 0, delay, count});
}

void FaultProxy::pauseNext(std::string match) {
    std::lock_guard lock(m_mutex);
    m_paused = true;
    m_rules.push_back({Rule::Kind::Pause, std::move(match), 0, {}, 1});
}

void FaultProxy::resume() {
    {
        std::lock_guard lock(m_mutex);
        m_paused = false;
    }
    m_resumed.notify_all();
}

void FaultProxy::inflateNext(std::string match, std::size_t bytes) {
    std::lock_guard lock(m_mutex);
    Rule rule{Rule::Kind::Inflate, std::move(match), 0, {}, 1};
    rule.bytes = bytes;
    m_rules.push_back(std::move(rule));
}

void FaultProxy::stallNext(std::string match) {
    std::lock_guard lock(m_mutex);
    m_rules.push_back({Rule::Kind::Stall, std::move(match), 0, {}, 1});
}

void FaultProxy::trickleNext(std::string match, std::size_t bytesPerSecond) {
    std::lock_guard lock(m_mutex);
    Rule rule{Rule::Kind::Trickle, std::move(match), 0, {}, 1};
    rule.bytes = std::max<std::size_t>(bytesPerSecond, 10);
    m_rules.push_back(std::move(rule));
}

void FaultProxy::dropWatches() {
    ++m_dropGeneration;
}

void FaultProxy::refuseConnections(bool refuse) {
    m_refusing = refuse;
}

void FaultProxy::holdWatches(bool hold) {
    m_holding = hold;
}

std::vector<std::string> FaultProxy::requests() const {
    std::lock_guard lock(m_mutex);
    return m_requests;
}

int FaultProxy::count(std::string_view match) const {
    std::lock_guard lock(m_mutex);
    return static_cast<int>(std::count_if(m_requests.begin(), m_requests.end(),
                                          [&](const std::string& line) { return line.find(match) != std::string::npos; }));
}

bool FaultProxy::takeRule(const std::string& requestLine, Rule& out, bool isWatch, bool forEvent) {
    std::lock_guard lock(m_mutex);
    for (auto it = m_rules.begin(); it != m_rules.end(); ++it) {
        if (requestLine.find(it->match) == std::string::npos) continue;
        if (forEvent ? !it->altersBody() : isWatch && it->altersBody()) continue;
        out = *it;
        if (--it->remaining <= 0) m_rules.erase(it);
        return true;
    }
    return false;
}

void FaultProxy::acceptLoop() {
    while (!m_stopping) {
        pollfd entry{m_listener, POLLIN, 0};
        if (::poll(&entry, 1, 50) <= 0) continue;
        const int fd = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;
        if (m_refusing) {
            ::close(fd);
            continue;
        }
        ++m_accepted;
        std::lock_guard lock(m_mutex);
        m_connectionThreads.emplace_back([this, fd] { serve(fd); });
    }
}

void FaultProxy::serve(int fd) {
    SSL* ssl = SSL_new(static_cast<SSL_CTX*>(m_serverContext));
    SSL_set_fd(ssl, fd);
    TlsStream client(ssl, fd);
    if (SSL_accept(ssl) != 1) return;
    std::unique_ptr<TlsStream> upstream;
    const Abort stopped = [this] { return m_stopping.load() || m_refusing.load(); };

    while (!m_stopping) {
        // The request: head, then a Content-Length body.
        std::size_t headEnd = 0;
        if (!client.readUntil("\r\n\r\n", headEnd, stopped)) return;
        std::string head = client.take(headEnd);
        const std::string length = headerValue(head, "content-length");
        const std::size_t bodySize = length.empty() ? 0 : std::stoul(length);
        if (!client.readAtLeast(bodySize, stopped)) return;
        const std::string body = client.take(bodySize);
        std::string requestLine = head.substr(0, head.find("\r\n"));
        requestLine = requestLine.substr(0, requestLine.rfind(' ')); // without " HTTP/1.1"
        {
            std::lock_guard lock(m_mutex);
            m_requests.push_back(requestLine);
        }
        const bool isWatch = requestLine.find("watch=1") != std::string::npos ||
                             requestLine.find("watch=true") != std::string::npos;

        Rule rule{};
        bool alterBody = false;
        if (takeRule(requestLine, rule, isWatch)) {
            switch (rule.kind) {
            case Rule::Kind::Inflate:
            case Rule::Kind::Stall:
            case Rule::Kind::Trickle:
                alterBody = true;
                break;
            case Rule::Kind::Fail: {
                const std::string status = std::to_string(rule.status);
                const std::string json = R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
                                         R"("message":"injected by the test proxy","reason":")" +
                                         std::string(reason(rule.status)) + R"(","code":)" + status + "}";
                if (!client.write("HTTP/1.1 " + status + ' ' + std::string(reason(rule.status)) +
                                  "\r\nContent-Type: application/json\r\nContent-Length: " +
                                  std::to_string(json.size()) + "\r\n\r\n" + json))
                    return;
                continue;
            }
            case Rule::Kind::Expire: {
                const std::string event =
                    R"json({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)json"
                    R"json("message":"too old resource version (injected by the test proxy)","reason":"Expired","code":410}})json"
                    "\n";
                if (!client.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
                                  chunk(event) + "0\r\n\r\n"))
                    return;
                continue;
            }
            case Rule::Kind::Delay: {
                const auto until = std::chrono::steady_clock::now() + rule.delay;
                while (std::chrono::steady_clock::now() < until && !m_stopping)
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                break;
            }
            case Rule::Kind::Pause: {
                std::unique_lock lock(m_mutex);
                m_resumed.wait(lock, [this] { return !m_paused || m_stopping; });
                break;
            }
            }
        }

        if (!upstream || upstream->peerClosed()) {
            const int upstreamFd = connectLoopback(m_options.upstreamPort);
            if (upstreamFd < 0) return;
            SSL* upstreamSsl = SSL_new(static_cast<SSL_CTX*>(m_clientContext));
            SSL_set_fd(upstreamSsl, upstreamFd);
            upstream = std::make_unique<TlsStream>(upstreamSsl, upstreamFd);
            if (SSL_connect(upstreamSsl) != 1) return;
        }
        if (!upstream->write(head + body)) return;
        const std::uint64_t generation = m_dropGeneration.load(); // dropWatches() from now on ends it

        // The response head as the server sent it.
        if (isWatch) ++m_watchesOpen;
        struct WatchCount {
            std::atomic<int>& open;
            bool counted;
            ~WatchCount() {
                if (counted) --open;
            }
        } watchCount{m_watchesOpen, isWatch};
        std::string held;
        // Between reads of a watch: a drop ends it (abruptly), a release sends what was held.
        const Abort watchAbort = [&] {
            // A server that seems down carries no watch either, even one that began just as it went.
            if (m_stopping || m_refusing || m_dropGeneration.load() != generation || client.peerClosed()) return true;
            if (!m_holding && !held.empty()) {
                if (!client.write(held)) return true;
                held.clear();
            }
            return false;
        };
        const Abort& abort = isWatch ? watchAbort : stopped;
        std::size_t responseHeadEnd = 0;
        if (!upstream->readUntil("\r\n\r\n", responseHeadEnd, abort)) return;
        const std::string responseHead = upstream->take(responseHeadEnd);
        if (!alterBody && !client.write(responseHead)) return; // an altered body comes with a head of its own
        const bool chunked = headerValue(responseHead, "transfer-encoding").find("chunked") != std::string::npos;
        const std::string responseLength = headerValue(responseHead, "content-length");
        // Waits, sending nothing, until the client gives up on what it was sent.
        const auto holdUntilClientGoes = [&] {
            while (!abort() && !client.peerClosed()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        };
        // Sends `data` at the rule's rate; false when the client went away.
        const auto trickle = [&](std::string_view data, std::size_t bytesPerSecond, bool asChunks) {
            const std::size_t step = std::max<std::size_t>(1, bytesPerSecond / 10);
            for (std::size_t at = 0; at < data.size(); at += step) {
                const std::string_view piece = data.substr(at, step);
                if (!client.write(asChunks ? chunk(piece) : std::string(piece))) return false;
                const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
                while (std::chrono::steady_clock::now() < until) {
                    if (abort() || client.peerClosed()) return false;
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
                }
            }
            return true;
        };
        if (alterBody) {
            // The whole body from the server, then sent on chunked as the rule says.
            std::string answer;
            if (chunked) {
                for (Chunk piece; piece.raw.empty() || piece.size > 0;) {
                    if (!readChunk(*upstream, abort, piece)) return;
                    answer += piece.data();
                }
            } else if (!responseLength.empty()) {
                const std::size_t size = std::stoul(responseLength);
                if (!upstream->readAtLeast(size, abort)) return;
                answer = upstream->take(size);
            }
            if (!client.write(chunkedHead(responseHead))) return;
            if (rule.kind == Rule::Kind::Stall) {
                if (client.write(chunk(answer.substr(0, answer.size() / 2)))) holdUntilClientGoes();
                return;
            }
            if (rule.kind == Rule::Kind::Trickle) {
                if (!trickle(answer, rule.bytes, true)) return;
            } else {
                answer = inflated(answer, rule.bytes);
                for (std::size_t at = 0; at < answer.size(); at += 65536)
                    if (!client.write(chunk(std::string_view(answer).substr(at, 65536)))) return;
            }
            if (!client.write("0\r\n\r\n")) return;
            if (headerValue(responseHead, "connection") == "close") return;
            continue;
        }
        if (chunked) {
            while (true) {
                Chunk read;
                if (!readChunk(*upstream, abort, read)) return;
                std::string& piece = read.raw;
                const std::size_t size = read.size;
                Rule eventRule{};
                if (isWatch && size > 0 && takeRule(requestLine, eventRule, true, true)) {
                    const std::string event = read.data();
                    if (eventRule.kind == Rule::Kind::Inflate) {
                        piece = chunk(inflated(event, eventRule.bytes));
                    } else if (eventRule.kind == Rule::Kind::Stall) {
                        if (client.write(held) && client.write(chunkSize(size) + event.substr(0, size / 2)))
                            holdUntilClientGoes();
                        return;
                    } else {
                        if (!client.write(held) || !client.write(chunkSize(size)) || !trickle(event, eventRule.bytes, false) ||
                            !client.write("\r\n"))
                            return;
                        held.clear();
                        continue;
                    }
                }
                if (isWatch && m_holding) {
                    held += piece;
                } else {
                    if (!held.empty() && !client.write(held)) return;
                    held.clear();
                    if (!client.write(piece)) return;
                }
                if (size == 0) break;
            }
            // A watch that ended while held is passed on once released (or dropped).
            while (!held.empty()) {
                if (watchAbort()) return;
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        } else if (!responseLength.empty()) {
            const std::size_t size = std::stoul(responseLength);
            if (!upstream->readAtLeast(size, abort)) return;
            if (!client.write(upstream->take(size))) return;
        }
        if (headerValue(responseHead, "connection") == "close") return;
    }
}

TunnelProxy::TunnelProxy() {
    m_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(m_listener, reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(m_listener, 64) != 0 ||
        ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length) != 0)
        return;
    m_port = ntohs(address.sin_port);
    m_acceptThread = std::thread([this] { acceptLoop(); });
}

TunnelProxy::~TunnelProxy() {
    m_stopping = true;
    if (m_acceptThread.joinable()) m_acceptThread.join();
    for (std::thread& thread : m_threads) thread.join();
    ::close(m_listener);
}

void TunnelProxy::acceptLoop() {
    while (!m_stopping) {
        pollfd entry{m_listener, POLLIN, 0};
        if (::poll(&entry, 1, 50) <= 0) continue;
        const int fd = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;
        std::lock_guard lock(m_mutex);
        m_threads.emplace_back([this, fd] { tunnel(fd); });
    }
}

void TunnelProxy::tunnel(int client) {
    // "CONNECT 127.0.0.1:16443 HTTP/1.1" and headers, then the two sockets are spliced.
    std::string head;
    char byte = 0;
    while (head.find("\r\n\r\n") == std::string::npos && ::recv(client, &byte, 1, 0) == 1) head += byte;
    int upstream = -1;
    if (head.rfind("CONNECT 127.0.0.1:", 0) == 0) upstream = connectLoopback(std::atoi(head.c_str() + 18));
    const std::string_view answer = upstream >= 0 ? "HTTP/1.1 200 Connection established\r\n\r\n"
                                                  : "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n";
    if (::send(client, answer.data(), answer.size(), MSG_NOSIGNAL) < 0 || upstream < 0) {
        ::close(client);
        if (upstream >= 0) ::close(upstream);
        return;
    }
    ++m_tunnels;
    pollfd fds[2] = {{client, POLLIN, 0}, {upstream, POLLIN, 0}};
    char buffer[16384];
    while (!m_stopping) {
        if (::poll(fds, 2, 50) <= 0) continue;
        bool closed = false;
        for (int i = 0; i < 2 && !closed; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            const ssize_t got = ::recv(fds[i].fd, buffer, sizeof buffer, 0);
            closed = got <= 0 || ::send(fds[1 - i].fd, buffer, static_cast<std::size_t>(got), MSG_NOSIGNAL) != got;
        }
        if (closed) break;
    }
    ::close(client);
    ::close(upstream);
}

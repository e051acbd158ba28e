#pragma once

// A loopback HTTP/1.1 server for the net tests: scripted answers, raw connections, a closed port.

#include <QtGlobal>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace nettest {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Upper bound for any wait on the server side, so a failing test ends instead of hanging.
inline constexpr auto kServerPatience = 5s;

inline bool waitReadable(int fd, Clock::time_point deadline, const std::atomic<bool>& stop) {
    while (!stop && Clock::now() < deadline) {
        pollfd entry{fd, POLLIN, 0};
        if (::poll(&entry, 1, 20) > 0) return true;
    }
    return false;
}

inline bool writeAll(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t written = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (written <= 0) return false;
        data.remove_prefix(static_cast<std::size_t>(written));
    }
    return true;
}

inline std::string httpResponse(int status, std::string_view body, std::string_view extraHeaders = {}) {
    return "HTTP/1.1 " + std::to_string(status) + " Test\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" +
           std::string(extraHeaders) + "\r\n" + std::string(body);
}

inline std::string chunk(std::string_view data) {
    char size[16];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    return size + std::string(data) + "\r\n";
}

// Keeps the connection open, answering nothing, until the client goes away.
inline void holdUntilClosed(int fd) {
    const std::atomic<bool> never{false};
    const auto deadline = Clock::now() + kServerPatience;
    char buffer[512];
    while (waitReadable(fd, deadline, never) && ::recv(fd, buffer, sizeof buffer, 0) > 0) {
    }
}

inline constexpr std::string_view kChunkedHeader = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";

// A loopback HTTP/1.1 server on an ephemeral port: it serves `connections` connections one after
// the other on its own thread, then stops. Raw servers hand the connection over without reading.
class TestServer {
public:
    // Answers one request; returns whether the connection stays open for the next one.
    using Handler = std::function<bool(int fd, const std::string& request)>;

    TestServer(int connections, Handler handler, bool raw = false) : m_handler(std::move(handler)), m_raw(raw) {
        m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (::bind(m_listener, reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(m_listener, 4) != 0 ||
            ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length) != 0)
            qFatal("test server cannot listen on 127.0.0.1");
        m_port = ntohs(address.sin_port);
        m_thread = std::thread([this, connections] { serve(connections); });
    }
    ~TestServer() {
        m_stop = true;
        m_thread.join();
        ::close(m_listener);
    }

    std::string url(std::string_view path = "/") const {
        return "http://127.0.0.1:" + std::to_string(m_port) + std::string(path);
    }
    int port() const { return m_port; }
    int accepted() const { return m_accepted; }
    std::vector<std::string> requests() const {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }

private:
    void serve(int connections) {
        for (int i = 0; i < connections; ++i) {
            if (!waitReadable(m_listener, Clock::now() + kServerPatience, m_stop)) return;
            const int fd = ::accept(m_listener, nullptr, nullptr);
            if (fd < 0) return;
            ++m_accepted;
            if (m_raw) {
                m_handler(fd, {});
            } else {
                for (std::string request = readRequest(fd); !request.empty(); request = readRequest(fd)) {
                    {
                        std::lock_guard lock(m_mutex);
                        m_requests.push_back(request);
                    }
                    if (!m_handler(fd, request)) break;
                }
            }
            ::close(fd);
        }
    }

    // Headers plus a Content-Length body, or empty when the client closed or went quiet.
    std::string readRequest(int fd) {
        const auto deadline = Clock::now() + kServerPatience;
        std::string data;
        std::size_t wanted = std::string::npos;
        while (data.size() < wanted) {
            if (wanted == std::string::npos) {
                if (const auto end = data.find("\r\n\r\n"); end != std::string::npos) {
                    const auto lengthAt = data.find("Content-Length: ");
                    wanted = end + 4 + (lengthAt < end ? std::stoul(data.substr(lengthAt + 16)) : 0);
                    continue;
                }
            }
            char buffer[4096];
            if (!waitReadable(fd, deadline, m_stop)) return {};
            const ssize_t received = ::recv(fd, buffer, sizeof buffer, 0);
            if (received <= 0) return {};
            data.append(buffer, static_cast<std::size_t>(received));
        }
        return data;
    }

    Handler m_handler;
    bool m_raw;
    int m_listener = -1;
    int m_port = 0;
    std::atomic<int> m_accepted{0};
    std::atomic<bool> m_stop{false};
    mutable std::mutex m_mutex;
    std::vector<std::string> m_requests;
    std::thread m_thread;
};

// A port nobody listens on: bound by us, then released.
inline int closedPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), length);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}


} // namespace nettest

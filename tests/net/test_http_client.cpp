#include "net/http_client.h"

#include "net_test_support.h"
#include "test_server.h"
#include "support/test_program.h"

#include <QTest>

#include <cstdio>

using namespace topodeck;
using namespace nettest;
using namespace std::chrono_literals;

namespace {

qint64 millisSince(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

} // namespace

class HttpClientTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        // Loopback only: a proxy from the environment must not take the test traffic.
        for (const char* name : {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"})
            qunsetenv(name);
    }

    void getReturnsBodyAndSendsHeaders() {
        TestServer server(1, [](int fd, const std::string&) {
            return writeAll(fd, httpResponse(200, "hello nodes", "X-Reply: yes\r\n"));
        });
        HttpClient client({.bearerToken = "s3cr3t-token"});
        HttpRequest request;
        request.url = server.url("/api/v1/nodes");
        request.headers = {{"X-Test", "1"}};
        const auto response = client.send(request);
        QVERIFY2(response.ok(), response.ok() ? "" : response.error().message.c_str());
        QCOMPARE(response->status, 200L);
        QCOMPARE(response->body, std::string("hello nodes"));
        QCOMPARE(response->header("x-reply"), std::string_view("yes"));

        const auto requests = server.requests();
        QCOMPARE(requests.size(), std::size_t(1));
        QVERIFY(requests[0].starts_with("GET /api/v1/nodes HTTP/1.1\r\n"));
        QVERIFY(requests[0].find("\r\nAuthorization: Bearer s3cr3t-token\r\n") != std::string::npos);
        QVERIFY(requests[0].find("\r\nX-Test: 1\r\n") != std::string::npos);
    }

    void basicAuthIsSent() {
        TestServer server(1, [](int fd, const std::string&) { return writeAll(fd, httpResponse(200, "ok")); });
        HttpClient client({.basicUser = "admin", .basicPassword = "pa55word"});
        QVERIFY(client.send(HttpRequest{.url = server.url()}).ok());
        const auto requests = server.requests();
        QCOMPARE(requests.size(), std::size_t(1));
        QVERIFY(requests[0].find("\r\nAuthorization: Basic YWRtaW46cGE1NXdvcmQ=\r\n") != std::string::npos);
    }

    void connectionIsReusedAcrossRequests() {
        TestServer server(1, [](int fd, const std::string& request) {
            const auto bodyStart = request.find("\r\n\r\n") + 4;
            return writeAll(fd, httpResponse(200, "echo:" + request.substr(bodyStart)));
        });
        HttpClient client;
        HttpRequest post;
        post.method = "POST";
        post.url = server.url("/apis/x");
        post.body = R"({"kind":"Node"})";
        post.headers = {{"Content-Type", "application/json"}};
        const auto first = client.send(post);
        QVERIFY(first.ok());
        QCOMPARE(first->body, std::string(R"(echo:{"kind":"Node"})"));
        const auto second = client.send(HttpRequest{.url = server.url("/again")});
        QVERIFY(second.ok());
        QCOMPARE(second->body, std::string("echo:"));
        QCOMPARE(server.accepted(), 1);
        QCOMPARE(server.requests().size(), std::size_t(2));
    }

    void errorStatusIsAResponse_data() {
        QTest::addColumn<int>("status");
        QTest::newRow("not found") << 404;
        QTest::newRow("server error") << 500;
        QTest::newRow("forbidden") << 403;
    }
    void errorStatusIsAResponse() {
        QFETCH(int, status);
        TestServer server(1, [status](int fd, const std::string&) {
            return writeAll(fd, httpResponse(status, R"({"kind":"Status"})"));
        });
        HttpClient client;
        const auto response = client.send(HttpRequest{.url = server.url("/missing")});
        QVERIFY(response.ok());
        QCOMPARE(response->status, long(status));
        QCOMPARE(response->body, std::string(R"({"kind":"Status"})"));
    }

    void streamDeliversChunksAsTheyArrive() {
        TestServer server(1, [](int fd, const std::string&) {
            bool ok = writeAll(fd, kChunkedHeader);
            for (const char* piece :
                 {"{\"type\":\"ADDED\"}\n", "{\"type\":\"MODIFIED\"}\n", "{\"type\":\"DELETED\"}\n"}) {
                ok = ok && writeAll(fd, chunk(piece));
                std::this_thread::sleep_for(100ms);
            }
            return ok && writeAll(fd, "0\r\n\r\n");
        });
        HttpClient client;
        std::vector<std::string> pieces;
        const auto status = client.stream(HttpRequest{.url = server.url("/watch")}, [&](std::string_view data) {
            pieces.emplace_back(data);
            return true;
        });
        QVERIFY2(status.ok(), status.ok() ? "" : status.error().message.c_str());
        QCOMPARE(*status, 200L);
        QVERIFY2(pieces.size() >= 2, "the body should arrive in pieces, not at the end");
        std::string joined;
        for (const auto& piece : pieces) joined += piece;
        QCOMPARE(joined, std::string("{\"type\":\"ADDED\"}\n{\"type\":\"MODIFIED\"}\n{\"type\":\"DELETED\"}\n"));
    }

    void streamStopsWhenCallbackReturnsFalse() {
        TestServer server(1, [](int fd, const std::string&) {
            bool ok = writeAll(fd, kChunkedHeader);
            for (int i = 0; ok && i < 250; ++i) { // at most 5 s, ends when the client hangs up
                ok = writeAll(fd, chunk("event " + std::to_string(i) + "\n"));
                std::this_thread::sleep_for(20ms);
            }
            return false;
        });
        HttpClient client;
        int calls = 0;
        const auto start = Clock::now();
        const auto status = client.stream(HttpRequest{.url = server.url("/watch")}, [&](std::string_view) {
            ++calls;
            return false;
        });
        QVERIFY2(status.ok(), status.ok() ? "" : status.error().message.c_str());
        QCOMPARE(*status, 200L);
        QCOMPARE(calls, 1);
        QVERIFY(millisSince(start) < 2000);
    }

    void streamKeepsTheBodyOfAnErrorStatus() {
        TestServer server(1, [](int fd, const std::string&) {
            return writeAll(fd, httpResponse(410, R"({"kind":"Status","code":410})"));
        });
        HttpClient client;
        bool called = false;
        const auto status = client.stream(HttpRequest{.url = server.url("/watch")}, [&](std::string_view) {
            called = true;
            return true;
        });
        QVERIFY(status.ok());
        QCOMPARE(*status, 410L);
        QVERIFY(!called);
        QCOMPARE(client.errorBody(), std::string(R"({"kind":"Status","code":410})"));
    }

    void refusedConnectionNamesTheAddressButNoSecret() {
        const int port = closedPort();
        HttpClient client({.bearerToken = "s3cr3t-token", .basicUser = "admin", .basicPassword = "pa55word"});
        HttpRequest request;
        request.url = "http://admin:pa55word@127.0.0.1:" + std::to_string(port) + "/api?token=t0ken-value";
        request.headers = {{"Authorization", "Bearer header-s3cret"}};
        const auto response = client.send(request);
        QVERIFY(!response.ok());
        const std::string& message = response.error().message;
        QVERIFY2(message.find("127.0.0.1:" + std::to_string(port)) != std::string::npos, message.c_str());
        QVERIFY2(message.find("refused") != std::string::npos, message.c_str());
        for (const char* secret : {"s3cr3t-token", "pa55word", "t0ken-value", "header-s3cret"})
            QVERIFY2(message.find(secret) == std::string::npos, message.c_str());
    }

    void silentServerTimesOut() {
        TestServer server(1, [](int fd, const std::string&) {
            holdUntilClosed(fd);
            return false;
        });
        HttpClient client;
        HttpRequest request;
        request.url = server.url("/slow");
        request.timeout = 300ms;
        const auto start = Clock::now();
        const auto response = client.send(request);
        QVERIFY(!response.ok());
        QVERIFY2(response.error().message.find("timed out after 300 ms") != std::string::npos,
                 response.error().message.c_str());
        QVERIFY(millisSince(start) < 2000);
    }

    void cancelEndsAHangingStream() {
        TestServer server(1, [](int fd, const std::string&) {
            if (writeAll(fd, kChunkedHeader) && writeAll(fd, chunk("first\n"))) holdUntilClosed(fd);
            return false;
        });
        HttpClient client;
        std::atomic<bool> received{false};
        std::atomic<Clock::rep> cancelledAt{0};
        std::thread canceller([&] {
            const auto deadline = Clock::now() + 5s;
            while (!received && Clock::now() < deadline) std::this_thread::sleep_for(10ms);
            std::this_thread::sleep_for(200ms); // let the client settle into waiting
            cancelledAt = Clock::now().time_since_epoch().count();
            client.cancel();
        });
        HttpRequest request;
        request.url = server.url("/watch");
        request.timeout = 0ms;
        const auto status = client.stream(request, [&](std::string_view) {
            received = true;
            return true;
        });
        const auto returnedAt = Clock::now();
        canceller.join();
        QVERIFY(received);
        QVERIFY(!status.ok());
        QVERIFY2(status.error().message.find("cancelled") != std::string::npos, status.error().message.c_str());
        QVERIFY(returnedAt - Clock::time_point(Clock::duration(cancelledAt)) < 1s);

        // Cancellation sticks until reset, so a cancel racing with the next request is not lost.
        const auto again = client.send(HttpRequest{.url = server.url("/")});
        QVERIFY(!again.ok());
        QVERIFY(again.error().message.find("cancelled") != std::string::npos);
        client.resetCancel();
        const auto afterReset = client.send(HttpRequest{.url = "http://127.0.0.1:" + std::to_string(closedPort())});
        QVERIFY(!afterReset.ok());
        QVERIFY(afterReset.error().message.find("cancelled") == std::string::npos);
    }

    // ---- limits and deadlines ----------------------------------------------------------------

    // A Content-Length above the limit is refused at the headers: the body is not waited for
    // (the server would take forever), and the error names the limit and how to raise it, but no
    // secret.
    void oversizeContentLengthIsRefusedAtTheHeaders_data() {
        QTest::addColumn<QString>("length");
        QTest::newRow("10 GiB") << QStringLiteral("10737418240");
        QTest::newRow("beyond 64 bits") << QStringLiteral("99999999999999999999999");
    }
    void oversizeContentLengthIsRefusedAtTheHeaders() {
        QFETCH(QString, length);
        TestServer server(1, [&](int fd, const std::string&) {
            if (writeAll(fd, "HTTP/1.1 200 OK\r\nContent-Length: " + length.toStdString() + "\r\n\r\n" + std::string(1000, 'x')))
                holdUntilClosed(fd);
            return false;
        });
        HttpClient client({.bearerToken = "s3cr3t-token"});
        const auto start = Clock::now();
        const auto response = client.send(HttpRequest{.url = server.url("/api/v1/nodes?token=t0ken-value"),
                                                      .maxBody = 1 << 20,
                                                      .limitVariable = "TOPODECK_MAX_KUBE_RESPONSE"});
        QVERIFY(!response.ok());
        QVERIFY(millisSince(start) < 2000);
        QVERIFY(client.refusedByLimit());
        const std::string& message = response.error().message;
        QVERIFY2(message.starts_with("refused the response to GET " + server.url("/api/v1/nodes?token=REDACTED")),
                 message.c_str());
        QVERIFY2(message.find("its Content-Length of " + length.toStdString() + " bytes is above the limit of 1 MiB") !=
                     std::string::npos,
                 message.c_str());
        QVERIFY2(message.ends_with("; raise it with TOPODECK_MAX_KUBE_RESPONSE (e.g. TOPODECK_MAX_KUBE_RESPONSE=2MiB)"),
                 message.c_str());
        for (const char* secret : {"s3cr3t-token", "t0ken-value"}) QVERIFY2(message.find(secret) == std::string::npos, message.c_str());
    }

    // Without a length, the body is refused as it passes the limit and the transfer stops: the
    // server's writes fail soon after, and what it managed to send is bounded by the socket
    // buffers, not by how long it keeps sending.
    void oversizeChunkedBodyIsRefused() {
        std::atomic<std::size_t> written{0};
        std::atomic<bool> hungUp{false};
        TestServer server(1, [&](int fd, const std::string&) {
            bool ok = writeAll(fd, kChunkedHeader);
            const std::string piece = chunk(std::string(64 * 1024, 'n'));
            const auto deadline = Clock::now() + kServerPatience;
            while (ok && Clock::now() < deadline) {
                ok = writeAll(fd, piece);
                if (ok) written += piece.size();
            }
            hungUp = !ok;
            return false;
        });
        HttpClient client;
        const auto response = client.send(HttpRequest{.url = server.url("/slurm/v0.0.40/nodes"),
                                                      .maxBody = 256 * 1024,
                                                      .limitVariable = "TOPODECK_MAX_SLURM_REPLY"});
        QVERIFY(!response.ok());
        QVERIFY(client.refusedByLimit());
        QVERIFY2(response.error().message ==
                     "refused the response to GET " + server.url("/slurm/v0.0.40/nodes") +
                         ": its body is larger than the limit of 256 KiB; raise it with TOPODECK_MAX_SLURM_REPLY "
                         "(e.g. TOPODECK_MAX_SLURM_REPLY=512KiB)",
                 response.error().message.c_str());
        QTRY_VERIFY_WITH_TIMEOUT(hungUp.load(), 3000);
        QVERIFY2(written < std::size_t{32} << 20, std::to_string(written.load()).c_str());

        // The client is fine afterwards, on a new connection.
        TestServer next(1, [](int fd, const std::string&) { return writeAll(fd, httpResponse(200, "small")); });
        const auto again = client.send(HttpRequest{.url = next.url("/"), .maxBody = 256 * 1024});
        QVERIFY(again.ok());
        QCOMPARE(again->body, std::string("small"));
        QVERIFY(!client.refusedByLimit());
    }

    // A head of two million bytes is no server's: libcurl refuses it (at 300 KiB), rather than
    // keep reading.
    void hugeHeadIsRefused() {
        TestServer server(1, [](int fd, const std::string&) {
            bool ok = writeAll(fd, "HTTP/1.1 200 OK\r\n");
            const std::string line = "X-Padding: " + std::string(1000, 'p') + "\r\n";
            for (int i = 0; ok && i < 2000; ++i) ok = writeAll(fd, line);
            if (ok) holdUntilClosed(fd);
            return false;
        });
        HttpClient client;
        const auto start = Clock::now();
        const auto response = client.send(HttpRequest{.url = server.url("/")});
        QVERIFY(!response.ok());
        QVERIFY2(response.error().message.find("Too large response headers") != std::string::npos,
                 response.error().message.c_str());
        QVERIFY(millisSince(start) < 2000);
    }

    // streamLines: a line beyond the limit ends the stream with an error; the lines before it
    // arrived, one exactly at the limit among them.
    void oversizeLineIsRefused() {
        TestServer server(1, [](int fd, const std::string&) {
            bool ok = writeAll(fd, kChunkedHeader) && writeAll(fd, chunk("first\n\n")) &&
                      writeAll(fd, chunk(std::string(1024, 'a') + "\n"));
            const std::string piece = chunk(std::string(16 * 1024, 'b'));
            const auto deadline = Clock::now() + kServerPatience;
            while (ok && Clock::now() < deadline) ok = writeAll(fd, piece);
            return false;
        });
        HttpClient client;
        std::vector<std::string> lines;
        const auto status = client.streamLines(
            HttpRequest{.url = server.url("/api/v1/nodes?watch=1"), .timeout = 0ms, .maxBody = 1024,
                        .limitVariable = "TOPODECK_MAX_KUBE_EVENT"},
            [&](std::string& line) {
                lines.push_back(std::move(line));
                return true;
            });
        QVERIFY(!status.ok());
        QVERIFY(client.refusedByLimit());
        QVERIFY2(status.error().message == "refused a line of the response to GET " + server.url("/api/v1/nodes?watch=1") +
                                               ": it is longer than the limit of 1 KiB; raise it with TOPODECK_MAX_KUBE_EVENT "
                                               "(e.g. TOPODECK_MAX_KUBE_EVENT=2KiB)",
                 status.error().message.c_str());
        QCOMPARE(lines.size(), std::size_t(2));
        QCOMPARE(lines[0], std::string("first"));
        QCOMPARE(lines[1], std::string(1024, 'a'));
    }

    // A body that trickles (10 bytes a second) or stops halfway fails once a low-speed window has
    // passed, long before the whole-transfer timeout.
    void slowBodyHitsTheLowSpeedDeadline_data() {
        QTest::addColumn<bool>("trickle");
        QTest::addColumn<QString>("says");
        QTest::newRow("trickle") << true << QStringLiteral("the server is too slow in the middle of the response to GET ");
        QTest::newRow("stall") << false << QStringLiteral("the server stalled in the middle of the response to GET ");
    }
    void slowBodyHitsTheLowSpeedDeadline() {
        QFETCH(bool, trickle);
        QFETCH(QString, says);
        TestServer server(1, [trickle](int fd, const std::string&) {
            bool ok = writeAll(fd, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + std::string(500, 'x'));
            if (!trickle) {
                if (ok) holdUntilClosed(fd);
                return false;
            }
            const auto deadline = Clock::now() + kServerPatience;
            while (ok && Clock::now() < deadline) {
                std::this_thread::sleep_for(100ms);
                ok = writeAll(fd, "x");
            }
            return false;
        });
        HttpClient client;
        const auto start = Clock::now();
        const auto response = client.send(HttpRequest{.url = server.url("/slurm/v0.0.40/jobs"), .timeout = 20s,
                                                      .lowSpeedLimit = 1024, .lowSpeedTime = 500ms});
        const qint64 took = millisSince(start);
        QVERIFY(!response.ok());
        QVERIFY(!client.refusedByLimit());
        QVERIFY2(QString::fromStdString(response.error().message).startsWith(says), response.error().message.c_str());
        QVERIFY2(took >= 450 && took < 3000, std::to_string(took).c_str());
    }

    // A streamed line that stops or trickles halfway fails the same way, after the lines before it.
    void slowLineHitsTheLowSpeedDeadline_data() {
        QTest::addColumn<bool>("trickle");
        QTest::addColumn<QString>("says");
        QTest::newRow("trickle") << true << QStringLiteral("the server is too slow in the middle of the response to GET ");
        QTest::newRow("stall") << false << QStringLiteral("the server stalled in the middle of the response to GET ");
    }
    void slowLineHitsTheLowSpeedDeadline() {
        QFETCH(bool, trickle);
        QFETCH(QString, says);
        TestServer server(1, [trickle](int fd, const std::string&) {
            bool ok = writeAll(fd, kChunkedHeader) && writeAll(fd, chunk("{\"type\":\"ADDED\"}\n{\"type\":\"MOD"));
            const auto deadline = Clock::now() + kServerPatience;
            if (!trickle) {
                if (ok) holdUntilClosed(fd);
                return false;
            }
            while (ok && Clock::now() < deadline) {
                std::this_thread::sleep_for(100ms);
                ok = writeAll(fd, chunk("I"));
            }
            return false;
        });
        HttpClient client;
        std::vector<std::string> lines;
        const auto start = Clock::now();
        const auto status = client.streamLines(
            HttpRequest{.url = server.url("/watch"), .timeout = 0ms, .lowSpeedLimit = 1024, .lowSpeedTime = 400ms},
            [&](std::string& line) {
                lines.push_back(line);
                return true;
            });
        const qint64 took = millisSince(start);
        QVERIFY(!status.ok());
        QVERIFY2(QString::fromStdString(status.error().message).startsWith(says), status.error().message.c_str());
        QCOMPARE(lines, std::vector<std::string>{"{\"type\":\"ADDED\"}"});
        QVERIFY2(took >= 350 && took < 3000, std::to_string(took).c_str());
    }

    // A watch's silence between lines is not a stall: only a line begun must keep coming.
    void silenceBetweenLinesIsNoStall() {
        TestServer server(1, [](int fd, const std::string&) {
            bool ok = writeAll(fd, kChunkedHeader) && writeAll(fd, chunk("one\n"));
            std::this_thread::sleep_for(1200ms);
            return ok && writeAll(fd, chunk("two\n")) && writeAll(fd, "0\r\n\r\n");
        });
        HttpClient client;
        std::vector<std::string> lines;
        const auto status = client.streamLines(
            HttpRequest{.url = server.url("/watch"), .timeout = 0ms, .lowSpeedLimit = 1024, .lowSpeedTime = 300ms},
            [&](std::string& line) {
                lines.push_back(line);
                return true;
            });
        QVERIFY2(status.ok(), status.ok() ? "" : status.error().message.c_str());
        QCOMPARE(*status, 200L);
        QCOMPARE(lines, (std::vector<std::string>{"one", "two"}));
    }

    // The sizes an operator may give a limit in, and the variables that set them.
    void byteSizes_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qulonglong>("bytes"); // 0: not a size
        QTest::newRow("plain") << QStringLiteral("65536") << qulonglong(65536);
        QTest::newRow("MiB") << QStringLiteral("512MiB") << qulonglong(512) * 1024 * 1024;
        QTest::newRow("M") << QStringLiteral("512M") << qulonglong(512) * 1024 * 1024;
        QTest::newRow("spaced GiB") << QStringLiteral(" 2 GiB ") << qulonglong(2) * 1024 * 1024 * 1024;
        QTest::newRow("k") << QStringLiteral("64k") << qulonglong(64) * 1024;
        QTest::newRow("bytes") << QStringLiteral("100b") << qulonglong(100);
        QTest::newRow("unit only") << QStringLiteral("MiB") << qulonglong(0);
        QTest::newRow("unknown unit") << QStringLiteral("5TB") << qulonglong(0);
        QTest::newRow("negative") << QStringLiteral("-5") << qulonglong(0);
        QTest::newRow("overflow") << QStringLiteral("99999999999999999999G") << qulonglong(0);
    }
    void byteSizes() {
        QFETCH(QString, text);
        QFETCH(qulonglong, bytes);
        const std::optional<std::size_t> parsed = parseByteSize(text.toStdString());
        QCOMPARE(parsed.value_or(0), std::size_t(bytes));
    }
    void limitsFromTheEnvironment() {
        EnvGuard event(kMaxKubeEventVariable), reply(kMaxSlurmReplyVariable), response(kMaxKubeResponseVariable);
        qputenv(kMaxKubeEventVariable, "32MiB");
        qputenv(kMaxSlurmReplyVariable, "not a size");
        qunsetenv(kMaxKubeResponseVariable);
        const ReadLimits limits = ReadLimits::fromEnvironment();
        QCOMPARE(limits.kubeEvent, std::size_t{32} << 20);
        QCOMPARE(limits.slurmReply, ReadLimits{}.slurmReply); // an invalid value keeps the default
        QCOMPARE(limits.kubeResponse, ReadLimits{}.kubeResponse);
        QCOMPARE(KubeSourceOptions{}.limits.kubeEvent, std::size_t{32} << 20);
        QCOMPARE(describeByteSize(std::size_t{16} << 20), std::string("16 MiB"));
        QCOMPARE(describeByteSize(1000), std::string("1000 bytes"));
    }

    void gzipBodyIsDecoded() {
        // `printf 'topodeck %.0s' $(seq 1000) | gzip -n -9`
        static const unsigned char gzipped[] = {
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xed, 0xc6, 0xb1, 0x0d, 0x00, 0x20,
            0x08, 0x00, 0xb0, 0x57, 0xf8, 0x4d, 0x98, 0x18, 0x70, 0xe0, 0xff, 0xf8, 0x87, 0x69, 0xa7, 0xee,
            0xdc, 0xc9, 0x3a, 0x1d, 0x2b, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
            0x22, 0x22, 0x22, 0x22, 0x22, 0xf2, 0x6f, 0x1e, 0x1d, 0x91, 0xc5, 0xc3, 0x28, 0x23, 0x00, 0x00};
        TestServer server(1, [](int fd, const std::string&) {
            const std::string_view body(reinterpret_cast<const char*>(gzipped), sizeof gzipped);
            return writeAll(fd, httpResponse(200, body, "Content-Encoding: gzip\r\n"));
        });
        HttpClient client;
        const auto response = client.send(HttpRequest{.url = server.url("/big")});
        QVERIFY(response.ok());
        std::string expected;
        for (int i = 0; i < 1000; ++i) expected += "topodeck ";
        QCOMPARE(response->body, expected);
        const auto requests = server.requests();
        QCOMPARE(requests.size(), std::size_t(1));
        const auto acceptEncoding = requests[0].find("Accept-Encoding: ");
        QVERIFY(acceptEncoding != std::string::npos);
        QVERIFY(requests[0]
                    .substr(acceptEncoding, requests[0].find("\r\n", acceptEncoding) - acceptEncoding)
                    .find("gzip") != std::string::npos);
    }

    void tlsFailureIsReported() {
        // A plain-text server answering the TLS ClientHello with HTTP.
        TestServer server(
            1, [](int fd, const std::string&) { return writeAll(fd, httpResponse(400, "not TLS")); }, true);
        HttpClient client;
        const std::string url = "https://127.0.0.1:" + std::to_string(server.port()) + "/";
        const auto response = client.send(HttpRequest{.url = url});
        QVERIFY(!response.ok());
        QVERIFY2(response.error().message.starts_with("TLS failure with " + url.substr(0, url.size() - 1)),
                 response.error().message.c_str());
    }

    void serverNameIsRequestedButUrlHostIsDialled() {
        TestServer server(1, [](int fd, const std::string&) { return writeAll(fd, httpResponse(200, "ok")); });
        HttpClient client({.tls = {.serverName = "api.cluster.test"}});
        const auto response = client.send(HttpRequest{.url = server.url("/version")});
        QVERIFY2(response.ok(), response.ok() ? "" : response.error().message.c_str());
        const auto requests = server.requests();
        QCOMPARE(requests.size(), std::size_t(1));
        const std::string host = "\r\nHost: api.cluster.test:" + std::to_string(server.port()) + "\r\n";
        QVERIFY2(requests[0].find(host) != std::string::npos, requests[0].c_str());
    }

    void redactUrlRemovesCredentials_data() {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("expected");
        auto row = [](const char* name, const char* url, const char* expected) {
            QTest::newRow(name) << QString::fromUtf8(url) << QString::fromUtf8(expected);
        };
        row("userinfo and token", "https://user:pass@host:6443/api?token=abc&x=1",
            "https://host:6443/api?token=REDACTED&x=1");
        row("access_token before fragment", "http://host/p?access_token=xyz#top",
            "http://host/p?access_token=REDACTED#top");
        row("key case ignored", "https://host/?TOKEN=a&tokenish=b", "https://host/?TOKEN=REDACTED&tokenish=b");
        row("empty token value", "https://host/?token=", "https://host/?token=REDACTED");
        row("nothing secret", "https://host/api?watch=true&resourceVersion=5",
            "https://host/api?watch=true&resourceVersion=5");
        row("at sign in path", "https://host/p@th?q=1", "https://host/p@th?q=1");
        row("no scheme", "user:pw@host:8080/x", "host:8080/x");
        row("user only", "https://bob@host/", "https://host/");
        row("empty", "", "");
    }
    void redactUrlRemovesCredentials() {
        QFETCH(QString, url);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(redactUrl(url.toStdString())), expected);
    }
};

TOPODECK_TEST_GUILESS_MAIN(HttpClientTest)
#include "test_http_client.moc"

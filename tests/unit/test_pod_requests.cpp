// The pod's effective request as kube-scheduler computes it (PodRequests in
// k8s.io/component-helpers/resource, after the API defaulting of requests from limits).
// The sidecar cases mirror the situations of the upstream TestPodResourceRequests table.
#include "core/model/pod_requests.h"
#include "support/test_program.h"

#include <QtTest>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

using topodeck::ContainerResources;
using topodeck::PodResourceSpec;
using topodeck::Quantity;
using topodeck::ResourceList;

Q_DECLARE_METATYPE(topodeck::PodResourceSpec)
Q_DECLARE_METATYPE(topodeck::ResourceList)

namespace {

constexpr const char* kGpu = "nvidia.com/gpu";

ResourceList resources(std::initializer_list<std::pair<const char*, const char*>> entries) {
    ResourceList list;
    for (const auto& [name, text] : entries) {
        auto quantity = Quantity::parse(text);
        if (!quantity) qFatal("bad quantity in test table: %s", quantity.error().message.c_str());
        list.set(name, *quantity);
    }
    return list;
}

ContainerResources container(ResourceList requests, ResourceList limits = {}) {
    ContainerResources c;
    c.requests = std::move(requests);
    c.limits = std::move(limits);
    return c;
}

ContainerResources sidecar(ResourceList requests, ResourceList limits = {}) {
    ContainerResources c = container(std::move(requests), std::move(limits));
    c.restartAlways = true;
    return c;
}

QByteArray describe(const ResourceList& list) {
    std::string text;
    for (const auto& [name, quantity] : list) {
        if (!text.empty()) text += ", ";
        text += name + "=" + quantity.toString();
    }
    return QByteArray::fromStdString("{" + text + "}");
}

} // namespace

class TestPodRequests : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void effectiveRequests_data() {
        QTest::addColumn<PodResourceSpec>("spec");
        QTest::addColumn<ResourceList>("expected");

        // App containers and overhead.
        QTest::newRow("empty pod") << PodResourceSpec{} << ResourceList{};
        QTest::newRow("one container") << PodResourceSpec{{container(resources({{"cpu", "1"}, {"memory", "1Gi"}}))},
                                                          {},
                                                          {}}
                                       << resources({{"cpu", "1"}, {"memory", "1Gi"}});
        QTest::newRow("two containers are summed")
            << PodResourceSpec{{container(resources({{"cpu", "1"}, {"memory", "5"}})),
                                container(resources({{"cpu", "4"}, {"memory", "12"}}))},
                               {},
                               {}}
            << resources({{"cpu", "5"}, {"memory", "17"}});
        QTest::newRow("two containers plus overhead")
            << PodResourceSpec{{container(resources({{"cpu", "1"}, {"memory", "5"}})),
                                container(resources({{"cpu", "4"}, {"memory", "12"}}))},
                               {},
                               resources({{"cpu", "3"}, {"memory", "8"}})}
            << resources({{"cpu", "8"}, {"memory", "25"}});
        QTest::newRow("overhead only") << PodResourceSpec{{}, {}, resources({{"cpu", "5"}, {"memory", "5"}})}
                                       << resources({{"cpu", "5"}, {"memory", "5"}});
        QTest::newRow("container without resources") << PodResourceSpec{{container({})}, {}, {}} << ResourceList{};

        // Limits stand in for absent requests.
        QTest::newRow("limits only") << PodResourceSpec{{container({}, resources({{"cpu", "2"}, {"memory", "4Gi"}}))},
                                                        {},
                                                        {}}
                                     << resources({{"cpu", "2"}, {"memory", "4Gi"}});
        QTest::newRow("limit fills only the missing request")
            << PodResourceSpec{{container(resources({{"cpu", "1"}}), resources({{"cpu", "2"}, {"memory", "4Gi"}}))},
                               {},
                               {}}
            << resources({{"cpu", "1"}, {"memory", "4Gi"}});
        QTest::newRow("explicit zero request is kept")
            << PodResourceSpec{{container(resources({{"cpu", "0"}}), resources({{"cpu", "2"}}))}, {}, {}}
            << resources({{"cpu", "0"}});
        QTest::newRow("request above limit is taken as written")
            << PodResourceSpec{{container(resources({{"cpu", "3"}}), resources({{"cpu", "2"}}))}, {}, {}}
            << resources({{"cpu", "3"}});

        // Requests are stored rounded up to a whole milli-unit.
        QTest::newRow("sub-milli request rounds up")
            << PodResourceSpec{{container(resources({{"cpu", "0.1m"}}))}, {}, {}} << resources({{"cpu", "1m"}});
        QTest::newRow("sub-milli limit rounds up")
            << PodResourceSpec{{container({}, resources({{"cpu", "1500u"}}))}, {}, resources({{"cpu", "1n"}})}
            << resources({{"cpu", "3m"}});

        // Regular init containers run one at a time before the app containers.
        QTest::newRow("larger init container")
            << PodResourceSpec{{container(resources({{"cpu", "1"}}))}, {container(resources({{"cpu", "4"}}))}, {}}
            << resources({{"cpu", "4"}});
        QTest::newRow("larger app containers")
            << PodResourceSpec{{container(resources({{"cpu", "2"}})), container(resources({{"cpu", "3"}}))},
                               {container(resources({{"cpu", "2"}}))},
                               {}}
            << resources({{"cpu", "5"}});
        QTest::newRow("massive init plus overhead")
            << PodResourceSpec{{container(resources({{"cpu", "1"}, {"memory", "5"}})),
                                container(resources({{"cpu", "4"}, {"memory", "12"}}))},
                               {container(resources({{"cpu", "1"}, {"memory", "5"}})),
                                container(resources({{"cpu", "40"}, {"memory", "120"}}))},
                               resources({{"cpu", "3"}, {"memory", "8"}})}
            << resources({{"cpu", "43"}, {"memory", "128"}});
        QTest::newRow("init maximum is per resource")
            << PodResourceSpec{{container(resources({{"cpu", "1"}, {"memory", "4Gi"}}))},
                               {container(resources({{"cpu", "8"}, {"memory", "1Gi"}}))},
                               {}}
            << resources({{"cpu", "8"}, {"memory", "4Gi"}});
        QTest::newRow("init container with limits only")
            << PodResourceSpec{{container(resources({{"cpu", "1"}}))}, {container({}, resources({{"cpu", "6"}}))}, {}}
            << resources({{"cpu", "6"}});
        QTest::newRow("resource only an init container asks for")
            << PodResourceSpec{{container(resources({{"cpu", "1"}}))},
                               {container(resources({{"ephemeral-storage", "10Gi"}}))},
                               {}}
            << resources({{"cpu", "1"}, {"ephemeral-storage", "10Gi"}});

        // Sidecars (restartPolicy: Always) keep running: they add to the sum, and to every init
        // container that starts after them.
        QTest::newRow("sidecar is added")
            << PodResourceSpec{{container(resources({{"cpu", "1"}}))}, {sidecar(resources({{"cpu", "1"}}))}, {}}
            << resources({{"cpu", "2"}});
        QTest::newRow("sidecars after the init container")
            << PodResourceSpec{{container(resources({{"cpu", "1"}}))},
                               {container(resources({{"cpu", "5"}})), sidecar(resources({{"cpu", "1"}})),
                                sidecar(resources({{"cpu", "2"}})), sidecar(resources({{"cpu", "3"}}))},
                               {}}
            << resources({{"cpu", "7"}});
        QTest::newRow("sidecars before and after a regular init container")
            << PodResourceSpec{{container(resources({{"cpu", "1"}}))},
                               {container(resources({{"cpu", "5"}})), sidecar(resources({{"cpu", "1"}})),
                                sidecar(resources({{"cpu", "2"}})), container(resources({{"cpu", "5"}})),
                                sidecar(resources({{"cpu", "3"}}))},
                               {}}
            << resources({{"cpu", "8"}});
        QTest::newRow("sidecar before a big init container")
            << PodResourceSpec{{container(resources({{"cpu", "100"}}))},
                               {sidecar(resources({{"cpu", "10"}})), container(resources({{"cpu", "200"}}))},
                               {}}
            << resources({{"cpu", "210"}});
        QTest::newRow("sidecar after a big init container")
            << PodResourceSpec{{container(resources({{"cpu", "100"}}))},
                               {container(resources({{"cpu", "200"}})), sidecar(resources({{"cpu", "10"}}))},
                               {}}
            << resources({{"cpu", "200"}});
        QTest::newRow("sidecar with limits only") << PodResourceSpec{{container(resources({{"memory", "1Gi"}}))},
                                                                     {sidecar({}, resources({{"memory", "1Gi"}}))},
                                                                     {}}
                                                  << resources({{"memory", "2Gi"}});
        QTest::newRow("sidecar, init and overhead together")
            << PodResourceSpec{{container(resources({{"cpu", "1"}, {"memory", "1Gi"}}))},
                               {sidecar(resources({{"cpu", "1"}, {"memory", "1Gi"}})),
                                container(resources({{"cpu", "2"}, {"memory", "2Gi"}}))},
                               resources({{"cpu", "250m"}, {"memory", "120Mi"}})}
            << resources({{"cpu", "3250m"}, {"memory", "3192Mi"}});

        // GPUs, usually given as limits only.
        QTest::newRow("gpu limit only") << PodResourceSpec{{container(resources({{"cpu", "4"}, {"memory", "16Gi"}}),
                                                                      resources({{kGpu, "8"}}))},
                                                           {},
                                                           {}}
                                        << resources({{"cpu", "4"}, {"memory", "16Gi"}, {kGpu, "8"}});
        QTest::newRow("gpus across containers")
            << PodResourceSpec{{container({}, resources({{kGpu, "4"}})), container({}, resources({{kGpu, "4"}}))},
                               {container({}, resources({{kGpu, "2"}}))},
                               {}}
            << resources({{kGpu, "8"}});
        QTest::newRow("gpu init container after a gpu sidecar")
            << PodResourceSpec{{container({}, resources({{kGpu, "2"}}))},
                               {sidecar({}, resources({{kGpu, "1"}})), container({}, resources({{kGpu, "8"}}))},
                               {}}
            << resources({{kGpu, "9"}});
        QTest::newRow("gpu sidecar after the gpu init container")
            << PodResourceSpec{{container({}, resources({{kGpu, "2"}}))},
                               {container({}, resources({{kGpu, "8"}})), sidecar({}, resources({{kGpu, "1"}}))},
                               {}}
            << resources({{kGpu, "8"}});
    }

    void effectiveRequests() {
        QFETCH(PodResourceSpec, spec);
        QFETCH(ResourceList, expected);

        const ResourceList actual = topodeck::effectivePodRequests(spec);
        const QByteArray message = "got " + describe(actual) + ", expected " + describe(expected);
        QVERIFY2(actual == expected, message.constData());
    }

    void formatsFollowKubernetes() {
        PodResourceSpec spec;
        spec.containers = {container(resources({{"cpu", "500m"}, {"memory", "1Gi"}})),
                           container(resources({{"cpu", "1"}, {"memory", "512Mi"}}), resources({{kGpu, "8"}}))};
        const ResourceList actual = topodeck::effectivePodRequests(spec);
        QCOMPARE(actual.get("cpu").toString(), std::string("1500m"));
        QCOMPARE(actual.get("memory").toString(), std::string("1536Mi"));
        QCOMPARE(actual.get(kGpu).toString(), std::string("8"));
        QCOMPARE(actual.get(kGpu).value(), std::int64_t(8));
    }

    void inputIsNotModified() {
        PodResourceSpec spec;
        spec.containers = {container({}, resources({{"cpu", "2"}}))};
        spec.initContainers = {sidecar(resources({{"cpu", "1"}}))};
        const PodResourceSpec copy = spec;
        (void)topodeck::effectivePodRequests(spec);
        QVERIFY(spec.containers.front().requests.empty());
        QVERIFY(spec.containers.front().limits == copy.containers.front().limits);
        QVERIFY(spec.initContainers.front().requests == copy.initContainers.front().requests);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestPodRequests)
#include "test_pod_requests.moc"

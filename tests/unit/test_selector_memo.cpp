// Selector results remembered by the values the selectors read (core/cel/selector_memo.h), which
// the DRA dry-run and the GPU classing use to answer most devices by a look-up: a remembered
// answer is given back only for the same driver and the same read values (strings, versions with
// their build metadata, quantities with their format, absent as absent), never for programs that
// read dynamically; and over devices shaped like NVIDIA's, every answer equals evaluating.
// Selectors are NVIDIA's chart classes, the productName selectors of the DRA docs and
// Kubernetes' semver/quantity examples.
#include "core/cel/selector_memo.h"
#include "support/parsed_values.h"
#include "support/test_program.h"

#include <QtTest>

#include <random>
#include <string>
#include <vector>

using namespace topodeck::cel;
using topodeck::Quantity;
using topodeck::Version;

using topodeck::testing::qty;
using topodeck::testing::ver;

namespace {

Program compiled(const char* expression) {
    auto program = compile(expression);
    if (!program) qFatal("%s: %s", expression, program.error().message.c_str());
    return *program;
}

struct TestDevice {
    std::string driver = "gpu.nvidia.com";
    std::vector<DeviceAttribute> attributes;
    std::vector<DeviceCapacity> capacity;
    DeviceView view() const { return {driver, attributes, capacity, false}; }
};

// A GPU as NVIDIA's kubelet plugin publishes one: bare names in the driver's domain, sorted.
TestDevice gpu(const std::string& product, const std::string& uuid, const char* driverVersion = "575.57.8",
               const char* memory = "80Gi") {
    TestDevice d;
    d.attributes = {{"driverVersion", ver(driverVersion)},
                    {"productName", product},
                    {"resource.kubernetes.io/pcieRoot", std::string("pci0000:") + uuid.substr(uuid.size() - 2)},
                    {"type", std::string("gpu")},
                    {"uuid", uuid}};
    d.capacity = {{"memory", qty(memory)}};
    return d;
}

std::vector<FieldUse> readsOf(const std::vector<Program>& programs) {
    std::vector<FieldUse> reads;
    for (const Program& program : programs) reads.push_back(fieldsRead(program));
    return reads;
}

// All programs hold: 1; one does not: 0; an error: 0 with its text.
SelectorMemo::Entry evaluateAll(const std::vector<Program>& programs, const DeviceView& view) {
    for (const Program& program : programs) {
        auto matched = matches(program, view);
        if (!matched) return {0, matched.error().message};
        if (!*matched) return {0, {}};
    }
    return {1, {}};
}

// The memo's answer for a device, remembering it after a miss; `hit` says which.
SelectorMemo::Entry answer(SelectorMemo& memo, const std::vector<Program>& programs, const TestDevice& device,
                           bool& hit) {
    SelectorMemo::Probe probe;
    if (const SelectorMemo::Entry* known = memo.find(device.view(), probe)) {
        hit = true;
        return *known;
    }
    hit = false;
    SelectorMemo::Entry entry = evaluateAll(programs, device.view());
    memo.remember(probe, device.view(), entry);
    return entry;
}

const char* kGpuClass = "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'";
const char* kH100 = R"(device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3")";

} // namespace

class TestSelectorMemo : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sameReadValuesAreAnsweredFromMemory() {
        const std::vector<Program> programs{compiled(kGpuClass), compiled(kH100)};
        SelectorMemo memo(readsOf(programs));
        QVERIFY(memo.active());
        bool hit = false;
        // Devices differing only in what the selectors do not read (uuid, pcieRoot).
        QCOMPARE(answer(memo, programs, gpu("NVIDIA H100 80GB HBM3", "GPU-0a"), hit).result, std::int8_t(1));
        QVERIFY(!hit);
        QCOMPARE(answer(memo, programs, gpu("NVIDIA H100 80GB HBM3", "GPU-0b"), hit).result, std::int8_t(1));
        QVERIFY(hit);
        // Another product is another key.
        QCOMPARE(answer(memo, programs, gpu("NVIDIA GB200", "GPU-0c"), hit).result, std::int8_t(0));
        QVERIFY(!hit);
        QCOMPARE(answer(memo, programs, gpu("NVIDIA GB200", "GPU-0d"), hit).result, std::int8_t(0));
        QVERIFY(hit);
        QCOMPARE(memo.size(), std::size_t(2));
    }

    void theDriverIsPartOfTheKey() {
        // Bare names resolve in the driver's domain, so another driver's device with the same
        // bare attributes answers otherwise even where the selector does not read the driver.
        const std::vector<Program> programs{compiled(kH100)};
        SelectorMemo memo(readsOf(programs));
        bool hit = false;
        QCOMPARE(answer(memo, programs, gpu("NVIDIA H100 80GB HBM3", "GPU-01"), hit).result, std::int8_t(1));
        TestDevice other = gpu("NVIDIA H100 80GB HBM3", "GPU-02");
        other.driver = "other.example.com";
        const SelectorMemo::Entry otherAnswer = answer(memo, programs, other, hit);
        QVERIFY(!hit);
        QCOMPARE(otherAnswer.result, std::int8_t(0));
        QVERIFY(!otherAnswer.error.empty()); // the domain is empty for it: "no such key"
    }

    void absentIsAValueOfItsOwn() {
        const std::vector<Program> programs{compiled(R"(device.attributes["gpu.nvidia.com"].productName == "X")")};
        SelectorMemo memo(readsOf(programs));
        bool hit = false;
        TestDevice bare = gpu("X", "GPU-01");
        bare.attributes.erase(bare.attributes.begin() + 1); // no productName
        const SelectorMemo::Entry missing = answer(memo, programs, bare, hit);
        QCOMPARE(missing.result, std::int8_t(0));
        QVERIFY(missing.error.find("no such key") != std::string::npos);
        QCOMPARE(answer(memo, programs, gpu("X", "GPU-02"), hit).result, std::int8_t(1));
        QVERIFY(!hit);
        QCOMPARE(answer(memo, programs, bare, hit).error, missing.error);
        QVERIFY(hit);
    }

    void versionsAndQuantitiesCompareInFull() {
        // Build metadata does not change precedence, nor a quantity's format its amount, but
        // a remembered answer is reused only for values that are the same in every respect.
        const std::vector<Program> programs{
            compiled(R"(device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("570.0.0")) && )"
                     R"(device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("80Gi")) >= 0)")};
        SelectorMemo memo(readsOf(programs));
        bool hit = false;
        QCOMPARE(answer(memo, programs, gpu("P", "GPU-01", "575.57.8+a"), hit).result, std::int8_t(1));
        (void)answer(memo, programs, gpu("P", "GPU-02", "575.57.8+b"), hit);
        QVERIFY(!hit);
        (void)answer(memo, programs, gpu("P", "GPU-03", "575.57.8+b"), hit);
        QVERIFY(hit);
        QCOMPARE(answer(memo, programs, gpu("P", "GPU-04", "575.57.8+b", "81920Mi"), hit).result, std::int8_t(1));
        QVERIFY(hit); // 80Gi written as 81920Mi: the same amount and format (binary SI)
        QCOMPARE(answer(memo, programs, gpu("P", "GPU-05", "575.57.8+b", "85899345920"), hit).result, std::int8_t(1));
        QVERIFY(!hit); // the same amount in decimal: another format
        QCOMPARE(answer(memo, programs, gpu("P", "GPU-06", "560.1.0"), hit).result, std::int8_t(0));
        QVERIFY(!hit);
    }

    void dynamicReadsAreNeverRemembered_data() {
        QTest::addColumn<QByteArray>("expression");
        QTest::newRow("iterates the attributes")
            << QByteArray(R"(device.attributes["gpu.nvidia.com"].exists(k, k == "productName"))");
        QTest::newRow("tests a domain") << QByteArray(R"("gpu.nvidia.com" in device.attributes)");
        QTest::newRow("computed key") << QByteArray(
            R"(device.attributes["gpu.nvidia.com"]["product" + "Name"] == "X")");
    }
    void dynamicReadsAreNeverRemembered() {
        QFETCH(QByteArray, expression);
        const std::vector<Program> programs{compiled(kGpuClass), compiled(expression.constData())};
        SelectorMemo memo(readsOf(programs));
        QVERIFY(!memo.active());
        SelectorMemo::Probe probe;
        const TestDevice device = gpu("X", "GPU-01");
        QVERIFY(memo.find(device.view(), probe) == nullptr);
        memo.remember(probe, device.view(), {1, {}});
        QVERIFY(memo.find(device.view(), probe) == nullptr);
        QCOMPARE(memo.size(), std::size_t(0));
    }

    void capacityBoundsWhatIsKept() {
        // A selector reading the uuid makes every device a key of its own: past the bound the
        // memo keeps nothing more and every device is evaluated.
        const std::vector<Program> programs{compiled(R"(device.attributes["gpu.nvidia.com"].uuid != "")")};
        SelectorMemo memo(readsOf(programs), 8);
        bool hit = false;
        for (int i = 0; i < 20; ++i) {
            QCOMPARE(answer(memo, programs, gpu("X", "GPU-" + std::to_string(100 + i)), hit).result, std::int8_t(1));
            QVERIFY(!hit);
        }
        QCOMPARE(memo.size(), std::size_t(8));
        (void)answer(memo, programs, gpu("X", "GPU-100"), hit);
        QVERIFY(hit);
    }

    void valuesAlikeAtBothEndsAreToldApart() {
        // The string hash reads a value's length and ends: these collide in it, and must still
        // be told apart by the full compare.
        const std::vector<Program> programs{
            compiled(R"(device.attributes["gpu.nvidia.com"].productName.contains("H100"))")};
        SelectorMemo memo(readsOf(programs));
        bool hit = false;
        QCOMPARE(answer(memo, programs, gpu("NVIDIA H100 80GB HBM3", "GPU-01"), hit).result, std::int8_t(1));
        QCOMPARE(answer(memo, programs, gpu("NVIDIA A100 80GB HBM3", "GPU-02"), hit).result, std::int8_t(0));
        QVERIFY(!hit);
        QCOMPARE(answer(memo, programs, gpu("NVIDIA H100 80GB HBM3", "GPU-03"), hit).result, std::int8_t(1));
        QVERIFY(hit);
    }

    void everyAnswerEqualsEvaluating() {
        // Many devices of a few models and driver versions, some without productName, some of
        // another driver, in random order: the memo's answers are the evaluations'.
        const std::vector<Program> programs{
            compiled(kGpuClass), compiled(kH100),
            compiled(R"(device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("570.0.0")))")};
        SelectorMemo memo(readsOf(programs));
        const std::vector<std::string> products{"NVIDIA H100 80GB HBM3", "NVIDIA GB200", "NVIDIA A100-SXM4-80GB"};
        const std::vector<const char*> versions{"575.57.8", "560.35.3", "570.0.0", "575.57.8-rc.1"};
        std::mt19937 random(11);
        int hits = 0;
        for (int i = 0; i < 2000; ++i) {
            TestDevice device = gpu(products[random() % products.size()], "GPU-" + std::to_string(i),
                                    versions[random() % versions.size()]);
            if (random() % 10 == 0) device.attributes.erase(device.attributes.begin() + 1);
            if (random() % 10 == 0) device.driver = "other.example.com";
            bool hit = false;
            const SelectorMemo::Entry got = answer(memo, programs, device, hit);
            const SelectorMemo::Entry expected = evaluateAll(programs, device.view());
            QCOMPARE(got.result, expected.result);
            QCOMPARE(got.error, expected.error);
            hits += hit;
        }
        QVERIFY(hits > 1900);
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestSelectorMemo)
#include "test_selector_memo.moc"

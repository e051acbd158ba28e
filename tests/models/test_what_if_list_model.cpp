// The what-if list model under QAbstractItemModelTester: steps added, edited, moved and removed,
// read as the session's steps, and marked with what each did.
#include "models/what_if_list_model.h"
#include "support/test_program.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace topodeck;

namespace {

QString targetAt(const WhatIfListModel& model, int row) {
    return model.index(row, WhatIfListModel::TargetColumn).data().toString();
}

} // namespace

class TestWhatIfListModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        m_model = std::make_unique<WhatIfListModel>();
        m_tester = std::make_unique<QAbstractItemModelTester>(m_model.get(),
                                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
    }
    void cleanup() {
        m_tester.reset();
        m_model.reset();
    }

    void addedStepsShowKindTargetAndOutcome() {
        QCOMPARE(m_model->addStep(WhatIfStep::Kind::Fail, QStringLiteral(" su-1/rack-1-02 ")), 0);
        QCOMPARE(m_model->addStep(WhatIfStep::Kind::Drain, QStringLiteral("gb200-su1-r03-n01")), 1);
        QCOMPARE(m_model->rowCount(), 2);
        QCOMPARE(m_model->columnCount(), int(WhatIfListModel::ColumnCount));
        QCOMPARE(m_model->index(0, WhatIfListModel::KindColumn).data().toString(), QStringLiteral("Fail"));
        QCOMPARE(m_model->index(1, WhatIfListModel::KindColumn).data().toString(), QStringLiteral("Drain"));
        QCOMPARE(targetAt(*m_model, 0), QStringLiteral("su-1/rack-1-02"));
        QCOMPARE(m_model->index(0, 0).data(WhatIfListModel::KindRole).toInt(), int(WhatIfStep::Kind::Fail));
        QVERIFY(!m_model->index(0, 0).data(WhatIfListModel::AppliedRole).isValid());
        QCOMPARE(m_model->index(0, WhatIfListModel::OutcomeColumn).data().toString(),
                 QStringLiteral("not applied yet"));
        QVERIFY(m_model->flags(m_model->index(0, WhatIfListModel::TargetColumn)) & Qt::ItemIsEditable);
        QVERIFY(!(m_model->flags(m_model->index(0, WhatIfListModel::KindColumn)) & Qt::ItemIsEditable));

        std::vector<WhatIfStepOutcome> outcomes(2);
        outcomes[0].applied = true;
        outcomes[0].text = "18 nodes failed: 2 running gangs broken, 2 would fit again now";
        outcomes[1].text = "drain nowhere: no node or topology domain has that name";
        QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
        m_model->setOutcomes(outcomes);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(m_model->index(0, WhatIfListModel::OutcomeColumn).data().toString(),
                 QString::fromStdString(outcomes[0].text));
        QCOMPARE(m_model->index(0, 0).data(WhatIfListModel::AppliedRole).toBool(), true);
        QCOMPARE(m_model->index(1, 0).data(WhatIfListModel::AppliedRole).toBool(), false);
        QVERIFY(m_model->index(1, WhatIfListModel::OutcomeColumn).data(Qt::ForegroundRole).isValid());
        m_model->clearOutcomes();
        QVERIFY(!m_model->index(0, 0).data(WhatIfListModel::AppliedRole).isValid());
    }

    void editingATargetForgetsItsOutcome() {
        m_model->addStep(WhatIfStep::Kind::Fail, QStringLiteral("su-1/rack-1-02"));
        std::vector<WhatIfStepOutcome> outcomes(1);
        outcomes[0].applied = true;
        outcomes[0].text = "done";
        m_model->setOutcomes(outcomes);
        const QModelIndex target = m_model->index(0, WhatIfListModel::TargetColumn);
        QVERIFY(m_model->setData(target, QStringLiteral("su-2/rack-2-01")));
        QCOMPARE(targetAt(*m_model, 0), QStringLiteral("su-2/rack-2-01"));
        QVERIFY(!m_model->index(0, 0).data(WhatIfListModel::AppliedRole).isValid());
        QVERIFY(!m_model->setData(target, QStringLiteral("  "))); // a step names something
        QVERIFY(!m_model->setData(m_model->index(0, WhatIfListModel::OutcomeColumn), QStringLiteral("x")));
    }

    void rowsMoveAndGo() {
        for (const char* name : {"a", "b", "c", "d"})
            m_model->addStep(WhatIfStep::Kind::Drain, QString::fromLatin1(name));
        QSignalSpy moved(m_model.get(), &QAbstractItemModel::rowsMoved);
        // c before a, then a after d (moveRows names the row it goes before).
        QVERIFY(m_model->moveRows(QModelIndex(), 2, 1, QModelIndex(), 0));
        QVERIFY(m_model->moveRows(QModelIndex(), 1, 1, QModelIndex(), 4));
        QCOMPARE(moved.count(), 2);
        QStringList order;
        for (int row = 0; row < m_model->rowCount(); ++row) order << targetAt(*m_model, row);
        QCOMPARE(order,
                 (QStringList{QStringLiteral("c"), QStringLiteral("b"), QStringLiteral("d"), QStringLiteral("a")}));
        QCOMPARE(m_model->headerData(3, Qt::Vertical).toInt(), 4);
        QVERIFY(!m_model->moveRows(QModelIndex(), 1, 1, QModelIndex(), 2)); // onto itself
        QVERIFY(!m_model->moveRows(QModelIndex(), 0, 1, QModelIndex(), 9));

        QVERIFY(m_model->removeRows(1, 2));
        QCOMPARE(m_model->rowCount(), 2);
        QCOMPARE(targetAt(*m_model, 1), QStringLiteral("a"));
        QVERIFY(!m_model->removeRows(1, 5));
        m_model->clear();
        QCOMPARE(m_model->rowCount(), 0);
    }

    void stepsReadAsTheSessionAppliesThem() {
        m_model->addStep(WhatIfStep::Kind::Place,
                         QStringLiteral("--pods 4 --request nvidia.com/gpu=4 --required rack --engine volcano"));
        m_model->addStep(WhatIfStep::Kind::Fail, QStringLiteral("su-1/rack-1-02"));
        auto steps = m_model->whatIfSteps();
        QVERIFY2(steps, steps ? "" : steps.error().message.c_str());
        QCOMPARE(steps->size(), std::size_t(2));
        QCOMPARE((*steps)[0].kind, WhatIfStep::Kind::Place);
        QCOMPARE((*steps)[0].gang.pods, 4);
        QCOMPARE((*steps)[0].engine, std::string("volcano"));
        QCOMPARE((*steps)[1].kind, WhatIfStep::Kind::Fail);
        QCOMPARE((*steps)[1].target, std::string("su-1/rack-1-02"));

        m_model->addStep(WhatIfStep::Kind::Place, QStringLiteral("--pods x"));
        auto bad = m_model->whatIfSteps();
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.rfind("Step 3: ", 0) == 0, bad.error().message.c_str());
    }

private:
    std::unique_ptr<WhatIfListModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

TOPODECK_TEST_GUILESS_MAIN(TestWhatIfListModel)
#include "test_what_if_list_model.moc"

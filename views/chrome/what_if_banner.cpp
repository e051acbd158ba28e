#include "views/chrome/what_if_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace topodeck {

WhatIfBanner::WhatIfBanner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("whatIfBanner"));
    // Amber with dark text in either theme: it must not pass for the live cluster's picture.
    setStyleSheet(QStringLiteral("#whatIfBanner { background:#fef3c7; border:1px solid #f59e0b; }"
                                 "QLabel { color:#78350f; } QToolButton { color:#78350f; }"));
    setAccessibleName(tr("Hypothetical cluster"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 4, 6, 4);
    m_text = new QLabel(this);
    m_text->setTextFormat(Qt::RichText);
    layout->addWidget(m_text, 1);
    auto* reset = new QToolButton(this);
    reset->setText(tr("Reset to Live"));
    reset->setToolTip(tr("Return to the live cluster (Ctrl+Backspace)"));
    layout->addWidget(reset);
    connect(reset, &QToolButton::clicked, this, &WhatIfBanner::resetRequested);
}

void WhatIfBanner::setSnapshot(const ClusterSnapshotPtr& snapshot) {
    m_active = snapshot && snapshot->hypothetical();
    if (!m_active) return;
    const auto steps = snapshot->hypotheticalSteps.size();
    const QString applied = steps == 1 ? tr("1 step applied") : tr("%1 steps applied").arg(steps);
    m_text->setText(tr("<b>Hypothetical: %1</b> — not the live cluster. Reset (Ctrl+Backspace)").arg(applied));
    m_text->setToolTip(snapshot->hypotheticalSteps.join(QLatin1Char('\n')));
}

QString WhatIfBanner::text() const {
    return m_active ? m_text->text() : QString();
}

} // namespace topodeck

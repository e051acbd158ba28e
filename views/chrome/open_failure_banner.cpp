#include "views/chrome/open_failure_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace topodeck {

OpenFailureBanner::OpenFailureBanner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("openFailureBanner"));
    setStyleSheet(QStringLiteral("#openFailureBanner { background:#fee2e2; border-bottom:1px solid #ef4444; }"
                                 "QLabel { color:#7f1d1d; }"));
    setAccessibleName(tr("Open failed"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    // The message names the file and place: the operator copies it into a bug or an editor.
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    layout->addWidget(m_text, 1);
    auto* dismiss = new QToolButton(this);
    dismiss->setText(tr("Dismiss"));
    dismiss->setAutoRaise(true);
    layout->addWidget(dismiss, 0, Qt::AlignTop);
    connect(dismiss, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void OpenFailureBanner::showFailure(const QString& source, const QString& message, const QString& stillShown) {
    QString text = tr("<b>Could not open %1</b> — %2").arg(source.toHtmlEscaped(), message.toHtmlEscaped());
    if (!stillShown.isEmpty()) text += tr("<br>Still showing %1.").arg(stillShown.toHtmlEscaped());
    m_text->setText(text);
    show();
}

QString OpenFailureBanner::text() const {
    return m_text->text();
}

} // namespace topodeck

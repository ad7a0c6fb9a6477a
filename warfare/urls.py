from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from kingdoms import views as kingdom_views

from . import accounts, health

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("", kingdom_views.home, name="home"),
    path("", include("kingdoms.urls")),
    path("", include("warfare.systems.pf2e.urls")),
    path("", include("battles.urls")),
    path("", include("warfare.systems.gurps4e.urls")),
    path("", include("warfare.systems.gurps3e.urls")),
    path("", include("warfare.systems.dnd5e.urls")),
    path("accounts/signup/", accounts.signup, name="signup"),
    path(
        "accounts/login/",
        accounts.throttle_failed_logins(accounts.LoginView.as_view()),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", accounts.PasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/profile/token/", accounts.token_create, name="token-create"),
    path("accounts/profile/token/revoke/", accounts.token_revoke, name="token-revoke"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("warfare.api_urls")),
    # The admin's log-in counts failures with ours.
    path("admin/login/", accounts.throttle_failed_logins(admin.site.login)),
    path("admin/", admin.site.urls),
]

handler404 = "warfare.api.errors.page_not_found"

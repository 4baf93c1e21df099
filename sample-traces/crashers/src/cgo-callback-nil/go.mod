module cgocallbacknil

go 1.19

#pragma once
#include <zint.h>
